// What each check of a suite file needs from the configuration, read from its source as --list shows it without
// running anything: the preconditions its body (and the helpers of the same file it calls) states with needs(),
// context.skip(), since() and before() (preconditions.ts), and the release its clause came with (the catalogue's
// since). A skip whose reason is decided at run time (a value handed over from a group's preparation) cannot be read.
import { checkTitles } from './check-titles.ts';
import { CLAUSE_ID, findClause } from './clauses.ts';

export interface CheckNeeds {
  line: number;
  /** The check's title, or undefined when it is not a plain string literal. */
  text?: string;
  /** What it needs, each once: "CONFORMANCE_TOKEN_B", "not CONFORMANCE_WHITELIST_MODE", "release >= 3.1.0". */
  needs: string[];
}

const SETTING_NAME = /CONFORMANCE_[A-Z_]+[A-Z]/g;
/** const NAME = 'text'; (or "text", or a template without placeholders): the reasons and releases checks name. */
const STRING_CONSTANT = /\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*(['"`])((?:\\.|(?!\2)[^\\])*)\2\s*;/g;
/** function name(...) or const name = (...) => / async (...) => / function: the helpers a check may call. */
const HELPER = /(?:\bfunction\s+([A-Za-z_$][\w$]*)\s*\(|\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\([^()]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>))/g;
/** A constant of the module (at the start of a line): a declared check names its steps and requirements so (`requires: [CREDENTIALS]`). */
const MODULE_CONSTANT = /^const\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=/gm;
/** A name the code calls or refers to (not a property: `x.name`). */
const NAMED = /(?<![.\w$])([A-Za-z_$][\w$]*)/g;

/** The code without its strings and comments, whose words name nothing. */
function codeOnly(code: string): string {
  return code.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|(['"`])(?:\\.|(?!\1)[^\\])*\1/g, ' ');
}
// needs(context, config.x, reason) in a check's body, or requirement(config.x, reason) in a declared check's options.
const NEEDS_CALL = /\b(?:needs\(\s*context\s*,|requirement\()\s*(!?)\s*([^,]+?)\s*,\s*([^)]*?)\s*\)/g;
const SKIP_CALL = /\bcontext\.skip\(\s*([^)]*?)\s*\)/g;
const RELEASE_CALL = /\b(since|before)\(\s*context\s*,\s*config\s*,\s*([^)]+?)\s*\)/g;
// removedIn: release in a declared check's options (run/checks.ts), as before(context, config, release) in its body.
const REMOVED_OPTION = /\bremovedIn:\s*([^,}]+?)\s*[,}]/g;
const CONFIG_FLAG = /^config\.([A-Za-z]+)$/;

/**
 * The end of the statement that starts at `from`: its `;` or the `}` that closes its block (a function declaration).
 * Strings, templates and comments are stepped over.
 */
export function statementEnd(source: string, from: number): number {
  let depth = 0;
  let seenBlock = false;
  for (let at = from; at < source.length; at++) {
    const char = source[at] as string;
    if (char === '/' && source[at + 1] === '/') at = source.indexOf('\n', at) === -1 ? source.length : source.indexOf('\n', at);
    else if (char === '/' && source[at + 1] === '*') at = source.indexOf('*/', at + 2) + 1 || source.length;
    else if (char === "'" || char === '"' || char === '`') {
      for (at++; at < source.length && source[at] !== char; at++) if (source[at] === '\\') at++;
    } else if ('([{'.includes(char)) {
      depth++;
      seenBlock ||= char === '{';
    } else if (')]}'.includes(char)) {
      depth--;
      // A block that closes the statement: a function declaration, not an arrow's body followed by more of it.
      if (depth <= 0 && char === '}' && seenBlock && !/^\s*[.(,);]/.test(source.slice(at + 1, at + 8))) return at + 1;
    } else if (char === ';' && depth === 0) return at + 1;
  }
  return source.length;
}

/** A setting's environment name from its field of Config: whitelistMode -> CONFORMANCE_WHITELIST_MODE. */
const settingOf = (field: string) => `CONFORMANCE_${field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** The needs that `code` states, with `constants` resolving the names it uses for reasons and releases. */
function statedNeeds(code: string, constants: ReadonlyMap<string, string>): string[] {
  const valueOf = (argument: string) => constants.get(argument) ?? argument.replace(/^(['"`])(.*)\1$/s, '$2');
  const needs: string[] = [];
  for (const [, not, condition, reason] of code.matchAll(NEEDS_CALL)) {
    const flag = CONFIG_FLAG.exec(condition as string)?.[1];
    if (flag) needs.push(`${not ? 'not ' : ''}${settingOf(flag)}`);
    else needs.push(...(valueOf(reason as string).match(SETTING_NAME) ?? []));
  }
  for (const [, reason] of code.matchAll(SKIP_CALL)) needs.push(...(valueOf(reason as string).match(SETTING_NAME) ?? []));
  for (const [, which, release] of code.matchAll(RELEASE_CALL)) needs.push(`release ${which === 'since' ? '>=' : '<'} ${valueOf(release as string)}`);
  for (const [, release] of code.matchAll(REMOVED_OPTION)) needs.push(`release < ${valueOf(release as string)}`);
  return needs;
}

/** Every check of a suite file's source, in order, with what it needs. */
export function checkNeeds(source: string): CheckNeeds[] {
  const constants = new Map([...source.matchAll(STRING_CONSTANT)].map((m) => [m[1] as string, m[3] as string]));
  const helpers = new Map([...source.matchAll(HELPER), ...source.matchAll(MODULE_CONSTANT)].map((m) => [(m[1] ?? m[2]) as string, source.slice(m.index, statementEnd(source, m.index))]));
  /** The helpers and constants a piece of code names, read once per helper: every check of a file reaches the same few. */
  const namedBy = new Map<string, string[]>();
  const namesIn = (code: string) => [...new Set([...codeOnly(code).matchAll(NAMED)].map(([, name]) => name as string).filter((name) => helpers.has(name)))];
  const namedByHelper = (name: string) => namedBy.get(name) ?? namedBy.set(name, namesIn(helpers.get(name) as string)).get(name) ?? [];
  /** The code of `body` and of every helper and constant it names, each once. */
  const reached = (body: string): string => {
    const seen = new Set<string>();
    const visit = (names: readonly string[]): void => {
      for (const name of names) {
        if (seen.has(name)) continue;
        seen.add(name);
        visit(namedByHelper(name));
      }
    };
    visit(namesIn(body));
    return [body, ...[...seen].map((name) => helpers.get(name) as string)].join('\n');
  };
  return checkTitles(source).map(({ line, at, text }) => {
    const body = source.slice(at, statementEnd(source, at));
    const since = text === undefined ? undefined : findClause(CLAUSE_ID.exec(text)?.[0] ?? '')?.since;
    const needs = [...(since ? [`release >= ${since}`] : []), ...statedNeeds(reached(body), constants)];
    return { line, ...(text === undefined ? {} : { text }), needs: [...new Set(needs)] };
  });
}
