// The in-process sandbox answers on this made-up host (.invalid never resolves, so nothing
// meant for it can leak onto the network), with one path prefix per service.
export const SANDBOX_BASE = 'http://sandbox.mailctl.invalid';

/** Keys the sandbox accepts unless told otherwise. Not secrets: they open nothing real. */
export const SANDBOX_KEYS = { campaign: 'sandbox-campaign-key', notify: 'sandbox-notify-key' } as const;
