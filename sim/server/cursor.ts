/**
 * Cursors of the simulated server: opaque base64url strings over (boot, offset, empty-page flag).
 * A cursor from an earlier boot (a restart, F11) or one that does not decode is invalid (-32602).
 */

/** A decoded cursor. `empty`: the next page is an inserted empty page (F5 empty-page-with-next). */
export interface CursorPosition {
  boot: number;
  offset: number;
  empty: boolean;
}

/** Encodes a position as an opaque cursor. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.boot, position.offset, position.empty ? 1 : 0]), 'utf8').toString(
    'base64url',
  );
}

/** Decodes a cursor, or returns undefined when it is not one of ours. */
export function decodeCursor(cursor: string): CursorPosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 3 || !value.every((n) => Number.isSafeInteger(n) && n >= 0))
      return undefined;
    return { boot: value[0] as number, offset: value[1] as number, empty: value[2] === 1 };
  } catch {
    return undefined;
  }
}
