// The titles of the checks as their suite file writes them, with their lines: every title is a plain string literal
// (clauses.test.ts holds that), so reading the source finds each check's line without vitest's task locations,
// which capture and source-map a stack trace for every check of every file each worker collects.
import { readFileSync } from 'node:fs';
import { ownedCheckTitle } from './run-wide.ts';
// The registered checks name the run-wide clauses they judge, whose owning checks it.runWide titles.
import './registered-checks.ts';

export interface Title {
  line: number;
  /** Where the check's call starts in the source. */
  at: number;
  /** The title's text, or undefined when it is not a plain string literal. */
  text?: string;
}

// it('...'), it.skip("..."), it.skipIf(cond)(`...`), test(...): the first argument of every check.
const CHECK_CALL = /(?<![.\w$])(?:it|test)(?:\.\w+(?:\([^()]*\))?)*\(\s*(?:(['"`])((?:\\.|(?!\1)[^\\])*)\1|([^\s'"`]))/g;

// describe('...') or section('...') (run/checks.ts): the first of a suite file is its group, titled with its section's heading.
const DESCRIBE_CALL = /(?<![.\w$])(?:describe|section)(?:\.\w+)*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

/** The literal describe titles of a suite file's source, in order: the first names its group. */
export function describeTitles(source: string): string[] {
  return [...source.matchAll(DESCRIBE_CALL)].map((match) => (match[2] as string).replace(/\\(.)/g, '$1'));
}

/** Every check call of a suite file's source, in order. */
export function checkTitles(source: string): Title[] {
  const titles: Title[] = [];
  let line = 1;
  let counted = 0;
  for (const match of source.matchAll(CHECK_CALL)) {
    for (let at = source.indexOf('\n', counted); at !== -1 && at < match.index; at = source.indexOf('\n', at + 1)) line++;
    counted = match.index;
    // A template literal with placeholders cannot be read here: a title names its clause literally.
    const raw = match[2];
    const literal = raw !== undefined && !(match[1] === '`' && raw.includes('${'));
    // it.runWide('RESOURCE-STATUS-1', ...) is titled from the clause's registry (run/checks.ts).
    const text = literal ? raw.replace(/\\(.)/g, '$1') : undefined;
    titles.push({ line, at: match.index, ...(text === undefined ? {} : { text: match[0].startsWith('it.runWide(') ? ownedCheckTitle(text) : text }) });
  }
  return titles;
}

/** The line of each check title of a suite file (the first, where a title is written twice); empty where it cannot be read. */
export function checkLines(file: string): Map<string, number> {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return new Map();
  }
  const lines = new Map<string, number>();
  for (const { text, line } of checkTitles(source)) if (text !== undefined && !lines.has(text)) lines.set(text, line);
  return lines;
}
