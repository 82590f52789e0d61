import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { transformCache } from './conformance-project.ts';

describe('transformCache', () => {
  const roots: string[] = [];
  const project = (tsconfig: string) => {
    const root = mkdtempSync(join(tmpdir(), 'conformance-cache-'));
    roots.push(root);
    writeFileSync(join(root, 'tsconfig.json'), tsconfig);
    return root;
  };
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it('should give a folder per tsconfig.json, and remove the folder of another once a new one is made', () => {
    const root = project('{"compilerOptions":{"target":"ES2022"}}');
    const first = transformCache(root);
    expect(first.fsModuleCache).toBe(true);
    expect(transformCache(root).fsModuleCachePath).toBe(first.fsModuleCachePath);
    writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions":{"target":"ES2020"}}');
    const second = transformCache(root);
    expect(second.fsModuleCachePath).not.toBe(first.fsModuleCachePath);
    expect(existsSync(second.fsModuleCachePath as string)).toBe(true);
    expect(existsSync(first.fsModuleCachePath as string)).toBe(false);
  });

  it('should cache nothing where its folder cannot be made', () => {
    // A file where the folder would go: no folder can be made there, whoever runs the test (root included).
    const root = project('{}');
    writeFileSync(join(root, 'node_modules'), '');
    expect(transformCache(root)).toEqual({ fsModuleCache: false });
  });
});
