// The words of the streaming scenario that its moves (stream-moves.ts) and its judges share: the streams a run
// opens, the tags its statuses carry, and why a check needs B.
export const TAG = 'conformancestream';
export const OTHER_TAG = 'conformanceother';
export const NEEDS_B = 'needs CONFORMANCE_TOKEN_B: the other user posts, replies and mentions A';

/** The streams of a run: A's, and the user stream of the public status's author. */
export type StreamKey = 'user' | 'authorUser' | 'public' | 'local' | 'hashtag' | 'localHashtag' | 'otherHashtag' | 'list' | 'direct';
export const STREAM_KEYS: readonly StreamKey[] = ['user', 'authorUser', 'public', 'local', 'hashtag', 'localHashtag', 'otherHashtag', 'list', 'direct'];
