// The contract, mapped (docs/contract-map.md): every table row and every numbered rule of the contract, read from the
// contract file itself, with the clauses that check it or the reason none does, as judge/contract-rows.ts declares
// them. A row the contract gains and the declaration does not map is named by unmappedRows, and docs.test.ts fails.
import { CONTRACT_ROWS, isReason, type RowMapping } from '../judge/contract-rows.ts';
import { findClause } from '../judge/clauses.ts';

/** One row of a table of the contract, or one numbered rule, under the heading it stands in. */
export interface ContractRow {
  heading: string;
  /** The row's first cells, as many as tell the rows of its table apart, joined by " · "; or "rule N". */
  key: string;
}

const KEY_JOIN = ' · ';

/** The cells of a table line: split at the pipes the contract does not escape, `\|` read as a pipe. */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** The keys of a table's rows: each row's fewest first cells that no other row of its table begins with. */
function tableKeys(rows: readonly string[][]): string[] {
  const prefix = (cells: readonly string[], count: number) => cells.slice(0, count).join(KEY_JOIN);
  return rows.map((cells, index) => {
    let count = 1;
    while (count < cells.length && rows.some((other, at) => at !== index && prefix(other, count) === prefix(cells, count))) count++;
    return prefix(cells, count);
  });
}

/** Every table row (its header and separator left out) and every numbered rule of a contract text, in its order. */
export function contractRows(markdown: string): ContractRow[] {
  const found: ContractRow[] = [];
  let heading = '';
  let table: string[][] = [];
  const endTable = () => {
    // The first line is the header, the second its separator.
    const rows = table.slice(2);
    for (const key of rows.length ? tableKeys(rows) : []) found.push({ heading, key });
    table = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (line.trimStart().startsWith('|')) {
      table.push(cellsOf(line));
      continue;
    }
    endTable();
    const title = /^#{1,6}\s+(.+?)\s*$/.exec(line);
    const rule = /^(\d+)\.\s/.exec(line);
    if (title) heading = title[1] as string;
    else if (rule) found.push({ heading, key: `rule ${rule[1]}` });
  }
  endTable();
  return found;
}

const mappingOf = (row: ContractRow): RowMapping | undefined => CONTRACT_ROWS[row.heading]?.[row.key];

/** "heading: key" of every row of the contract text that the declaration maps to no clause and gives no reason. */
export function unmappedRows(markdown: string): string[] {
  return contractRows(markdown)
    .filter((row) => {
      const mapping = mappingOf(row);
      return mapping === undefined || (isReason(mapping) ? mapping.none.trim() === '' : mapping.length === 0);
    })
    .map((row) => `${row.heading}: ${row.key}`);
}

/** What the declaration maps that the contract text does not hold (a row renamed or removed), and clause ids the catalogue lacks. */
export function staleMappings(markdown: string): string[] {
  const rows = new Set(contractRows(markdown).map((row) => `${row.heading}: ${row.key}`));
  const stale: string[] = [];
  for (const [heading, mapped] of Object.entries(CONTRACT_ROWS)) {
    for (const [key, mapping] of Object.entries(mapped)) {
      if (!rows.has(`${heading}: ${key}`)) stale.push(`${heading}: ${key} (no such row)`);
      if (!isReason(mapping)) for (const id of mapping) if (!findClause(id)) stale.push(`${heading}: ${key} (no clause ${id})`);
    }
  }
  return stale;
}

/** The map as the page shows it: each heading of the contract that holds rows, its rows in order, each mapped. */
export function contractMap(markdown: string): { heading: string; rows: { key: string; mapping: RowMapping | undefined }[] }[] {
  const sections: { heading: string; rows: { key: string; mapping: RowMapping | undefined }[] }[] = [];
  for (const row of contractRows(markdown)) {
    if (sections.at(-1)?.heading !== row.heading) sections.push({ heading: row.heading, rows: [] });
    sections.at(-1)?.rows.push({ key: row.key, mapping: mappingOf(row) });
  }
  return sections;
}
