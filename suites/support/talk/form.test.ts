import { describe, expect, it } from 'vitest';
import { formPairs, multipart, urlEncoded } from './form.ts';

describe('form encoding', () => {
  it('should write arrays with the [] suffix and nested values with bracket names', () => {
    expect(formPairs({ status: 'hi', media_ids: ['1', '2'], poll: { options: ['a', 'b'], expires_in: 300, multiple: true } })).toEqual([
      ['status', 'hi'],
      ['media_ids[]', '1'],
      ['media_ids[]', '2'],
      ['poll[options][]', 'a'],
      ['poll[options][]', 'b'],
      ['poll[expires_in]', '300'],
      ['poll[multiple]', 'true'],
    ]);
  });

  it('should leave out undefined values and percent-encode the rest', () => {
    expect(urlEncoded({ status: 'a&b=c ü', language: undefined })).toBe('status=a%26b%3Dc+%C3%BC');
  });

  it('should put files and fields into one multipart body', async () => {
    const form = await multipart({ description: 'cat', focus: '0.5,-0.5' }, [
      { field: 'file', filename: 'x.png', contentType: 'image/png', bytes: new Uint8Array([1, 2, 3]) },
    ]);
    expect(form.get('description')).toBe('cat');
    const file = form.get('file') as File;
    expect(file.name).toBe('x.png');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });
});
