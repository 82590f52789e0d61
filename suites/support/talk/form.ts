// The contract's wire convention: parameters as form data, arrays as `name[]`, nested values as bracket
// names such as `poll[options][]`. Uploads go as multipart with the same names.
// undici's own FormData: its request() encodes only that class as multipart, not Node's global one.
import type { FormData } from 'undici';
import { undici } from './undici.ts';

export type FormValue = string | number | boolean | undefined | FormValue[] | { [key: string]: FormValue };
export type FormParams = { [key: string]: FormValue };

/** Flattens nested params into ordered name/value pairs: {poll: {options: ['a']}} -> poll[options][]=a. */
export function formPairs(params: FormParams): [string, string][] {
  const pairs: [string, string][] = [];
  const walk = (name: string, value: FormValue): void => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(`${name}[]`, item);
    } else if (typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(`${name}[${key}]`, inner);
    } else {
      pairs.push([name, String(value)]);
    }
  };
  for (const [key, value] of Object.entries(params)) walk(key, value);
  return pairs;
}

export function urlEncoded(params: FormParams): string {
  return new URLSearchParams(formPairs(params)).toString();
}

export interface Upload {
  field: string;
  filename: string;
  /**
   * The file's absolute path on the machine that ran the suite, for the curl line: pasted there it uploads the same
   * bytes from any working directory (a path relative to the package, or $(npm root), would depend on where it is pasted).
   */
  path?: string;
  contentType: string;
  bytes: Uint8Array;
  /** A file that is invalid on purpose (media fixture "invalid"): the request is sent malformed (http.ts). */
  invalid?: boolean;
}

export async function multipart(params: FormParams, uploads: readonly Upload[]): Promise<FormData> {
  const form = new (await undici()).FormData();
  for (const [name, value] of formPairs(params)) form.append(name, value);
  for (const upload of uploads) {
    form.append(upload.field, new Blob([upload.bytes], { type: upload.contentType }), upload.filename);
  }
  return form;
}
