// The recording of a run (--record FILE.har): every exchange as an entry of HAR 1.2, the format browser devtools
// and HAR viewers open, redacted as every report is. The suite files run in worker threads: each worker keeps its
// file's exchanges and, at the file's end (run/setup.ts), writes them as a part beside the HAR file, when every
// secret the file obtained is known to redact(); the reporter merges the parts into the one file at the run's end.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { DEFAULT_USER_AGENT } from './config.ts';
import { perFile } from './file-state.ts';
import { type Exchange, issueOrderOf, onExchange } from './http.ts';
import { redact } from './redact.ts';

interface HarPair {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarPair[];
    queryString: HarPair[];
    postData?: { mimeType: string; text?: string; params?: Array<HarPair | { name: string; fileName: string; contentType: string }> };
    headersSize: -1;
    bodySize: -1;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarPair[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: -1;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment: string;
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[] };
}

/** Bodies a reader reads as text; the others (images, files) are recorded by size and type only. */
const TEXTUAL = /^(?:text\/|application\/(?:json|[^;]*\+json|x-www-form-urlencoded|xml|javascript))/i;

const redactedPairs = (pairs: Iterable<[string, string]>): HarPair[] => [...pairs].map(([name, value]) => ({ name, value: redact(value) }));

/** A positional mask ("[redacted]") in a URL, percent-encoded: a HAR's URL must stay a valid URI. */
const redactedUrl = (url: string) => redact(url).replace(/[[\]]/g, encodeURIComponent);

function postDataOf(exchange: Exchange): HarEntry['request']['postData'] {
  const contentType = exchange.requestHeaders['content-type'] ?? '';
  if (exchange.uploads) {
    // Redacted whole, before it is split: a value alone has lost the name ("password=") the positional masks look for.
    const fields = redact(exchange.requestBody ?? '').split('&').filter(Boolean).map((pair) => ({ name: pair.split('=')[0] ?? '', value: pair.slice(pair.indexOf('=') + 1) }));
    const files = exchange.uploads.map((upload) => {
      const [, name = '', fileName = '', type = ''] = /^([^=]*)=@(.*);type=(.*)$/.exec(upload) ?? [];
      return { name, fileName: basename(fileName), contentType: type };
    });
    return { mimeType: 'multipart/form-data', params: [...fields, ...files] };
  }
  return exchange.requestBody === undefined ? undefined : { mimeType: contentType, text: redact(exchange.requestBody) };
}

/** One exchange as a HAR entry, redacted; an exchange without an answer has status 0 and says why in its comment. */
export function harEntryOf(exchange: Exchange): HarEntry {
  const mimeType = exchange.headers['content-type'] ?? '';
  const textual = TEXTUAL.test(mimeType) || (mimeType === '' && exchange.text !== '');
  const postData = postDataOf(exchange);
  // Read from the redacted URL: a value alone has lost the name ("access_token=") that the positional masks look for.
  const url = redactedUrl(exchange.url);
  return {
    startedDateTime: exchange.startedAt ?? new Date(0).toISOString(),
    time: exchange.ms,
    request: {
      method: exchange.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: redactedPairs(Object.entries(exchange.requestHeaders)),
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(postData ? { postData } : {}),
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: exchange.status ?? 0,
      statusText: exchange.status === undefined ? '' : (STATUS_CODES[exchange.status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: redactedPairs(Object.entries(exchange.headers)),
      content: {
        size: Buffer.byteLength(exchange.text),
        mimeType,
        ...(textual ? { text: redact(exchange.text) } : { comment: 'a body that is not text: recorded by size and type only' }),
      },
      redirectURL: redactedUrl(exchange.headers.location ?? ''),
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    // The client sees one span, from sending to the answer's end: it is the wait.
    timings: { send: 0, wait: exchange.ms, receive: 0 },
    comment: `as ${exchange.actor}${exchange.error ? `; no answer: ${redact(exchange.error)}` : ''}`,
  };
}

/** This file's exchanges while the run records; none are kept otherwise. */
const recorded: Exchange[] = [];
let recording = false;
perFile(() => {
  recorded.length = 0;
});
onExchange((exchange) => {
  if (recording) recorded.push(exchange);
});

/** The run records (--record): each file keeps its exchanges until writeHarPart. */
export function recordExchanges(): void {
  recording = true;
}

const partsDirOf = (harFile: string) => `${harFile}.parts`;

/** Writes this file's exchanges, redacted now that every secret it obtained is known, as a part of the HAR file. */
export function writeHarPart(harFile: string, suiteFile: string): void {
  mkdirSync(partsDirOf(harFile), { recursive: true });
  // One part per suite file: a file runs once in a run, in one worker.
  // In the order they were issued, not answered: requests sent at the same moment (the same startedDateTime) keep it.
  const issued = [...recorded].sort((x, y) => (issueOrderOf(x) ?? 0) - (issueOrderOf(y) ?? 0));
  writeFileSync(join(partsDirOf(harFile), `${basename(suiteFile)}.json`), JSON.stringify(issued.map(harEntryOf)));
}

/** Removes the parts a run that did not end left behind, before a run writes its own. */
export function clearHarParts(harFile: string): void {
  rmSync(partsDirOf(harFile), { recursive: true, force: true });
}

/** Merges the parts into the HAR file, entries in the order they were sent, and removes the parts. */
export function mergeHarParts(harFile: string): void {
  const dir = partsDirOf(harFile);
  // A run that sent nothing (nothing selected) has no parts: its HAR has no entries.
  const names = existsSync(dir) ? readdirSync(dir) : [];
  const parts = names.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as HarEntry[]);
  const entries = parts.flat().sort((x, y) => x.startedDateTime.localeCompare(y.startedDateTime));
  const [name = 'social-api-conformance', version = ''] = DEFAULT_USER_AGENT.split('/');
  const har: Har = { log: { version: '1.2', creator: { name, version }, entries } };
  mkdirSync(dirname(harFile), { recursive: true });
  writeFileSync(harFile, `${JSON.stringify(har, null, 1)}\n`);
  clearHarParts(harFile);
}
