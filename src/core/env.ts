// The process environment as the run is handed it (bin/mailctl.js passes process.env; tests a
// plain object), and how a flag-like variable reads (CI, NO_COLOR-style switches). Here, below
// every layer, because the settings (src/config), the IO and the hint builder all read it.

export type Env = Record<string, string | undefined>;

/** A variable that is set to anything but "", "0" or "false" (any case). */
export function isTruthy(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}
