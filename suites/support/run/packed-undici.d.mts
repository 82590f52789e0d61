export function packedUndici(): Promise<string | undefined>;
