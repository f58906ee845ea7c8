// The in-process sandbox answers on this made-up host (.invalid never resolves, so nothing
// meant for it can leak onto the network), with one path prefix per service.
export const SANDBOX_BASE = 'http://sandbox.mailctl.invalid';

/** Keys the sandbox accepts unless told otherwise. Not secrets: they open nothing real. */
export const SANDBOX_KEYS = { campaign: 'sandbox-campaign-key', notify: 'sandbox-notify-key' } as const;

/**
 * The sender a --sandbox run uses when the profile names none: an address the sandbox treats as
 * verified (a verified campaign sender, in a verified transactional domain), so `send` and
 * `campaign create` work on a fresh sandbox. Never applied to the real services.
 */
export const SANDBOX_SENDER = { address: 'news@example.com', name: 'Example News' } as const;
