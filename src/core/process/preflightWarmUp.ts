// Returning visitors pay no CORS preflight (issue 15). Every API call carries the X-Corbado headers,
// so the browser asks the API first (a preflight) for each URL it has not asked about within the
// answer's Access-Control-Max-Age (the API sends 7200 s; Chromium caps it at 7200 s, Firefox at 24 h).
// A first visit calls session-config and process/init, a returning one session-config and
// GET /v2/auth/process, the only URL the first visit never used: its preflight alone put a round trip
// in front of the returning visitor's first screen. Once the first screen is up and the browser is
// idle, the process is loaded once more through that URL, so that its preflight is answered and kept.
// The answer is not used: it is the process as shown.
import type { FlowContext } from './flowContext';

type IdleWindow = Window & { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number };

/** at the latest this long after the first screen, if the browser is never idle before */
export const WARM_UP_DEADLINE_MS = 5000;

/**
 * Once per page, where the browser can say when it is idle (Chromium, Firefox; not WebKit, which is
 * left alone rather than given a timer that could compete with the visitor's first input). Nothing is
 * asked when the page has already used the URL (a resumed process), nor when there is no process by
 * then (the visitor finished already) or the widget was loaded again meanwhile.
 */
export function warmResumeUrl(ctx: FlowContext): void {
  const idle = (ctx.window as IdleWindow).requestIdleCallback;
  if (ctx.api.resumeUrlUsed || typeof idle !== 'function') return;
  ctx.api.resumeUrlUsed = true;
  idle.call(
    ctx.window,
    () => {
      if (ctx.disposed || !ctx.api.processId) return;
      ctx.api.getProcess().catch(() => undefined);
    },
    { timeout: WARM_UP_DEADLINE_MS },
  );
}
