/**
 * Mutant walks: the reference walk with exactly one defence removed (SPEC section 12). Each is
 * as small as possible, so that what the oracle catches is that one missing defence.
 */
import { Walk } from '../../src/discovery/scan.ts';

/** No final recheck: publishes right after the last page, without asking page 1 again. */
export class NoFinalRecheckWalk extends Walk {
  protected override async finalRecheck(): Promise<void> {}
}

/** First page only: treats page 1 as the whole catalog (what the SDK's own auto-refresh does). */
export class FirstPageOnlyWalk extends Walk {
  protected override checkCursor(): void {}
  protected override advance(cursorIn: string | undefined, read: Parameters<Walk['advance']>[1]): undefined {
    super.advance(cursorIn, { ...read, reply: { ...read.reply, nextCursor: undefined } });
    return undefined;
  }
}

/** No cursor-loop detection: follows a repeated cursor (only the page limit stops it). */
export class NoCursorLoopDetectionWalk extends Walk {
  protected override checkCursor(): void {}
}
