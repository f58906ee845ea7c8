// `--web`: a file mailctl wrote, opened in the default browser by the desktop's own opener
// (xdg-open, open, explorer.exe). The opener is spawned without a shell, with the file's absolute
// path as its only argument (never a key, never a word a shell could read), and without the API
// key variables in its environment: a browser has no business with them. Opening is a courtesy:
// when there is no browser to open, the run says so and still succeeds, with the file's path.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Env } from './context.js';

/** How long an opener may take to say it failed; one still running then is taken as a browser starting. */
export const OPENER_WAIT_MS = 3000;

/** The environment variables that hold keys (the one list: src/core/suggest.ts names the same three). */
const KEY_VARS = ['MAILCTL_API_KEY', 'MAILCTL_CAMPAIGN_API_KEY', 'MAILCTL_NOTIFY_API_KEY'];

export type OpenResult = { opened: true; opener: string } | { opened: false; why: string };

/** The opener for this platform: [program, the words before the file]. */
function openerFor(platform: NodeJS.Platform): [string, string[]] {
  if (platform === 'darwin') return ['open', []];
  // `start` is a builtin of cmd.exe, which would parse the path as a command line; explorer.exe
  // takes it as one argument and hands it to the default program for .html.
  if (platform === 'win32') return ['explorer.exe', []];
  return ['xdg-open', []];
}

export async function openInBrowser(env: Env, file: string, o: { platform?: NodeJS.Platform; waitMs?: number } = {}): Promise<OpenResult> {
  const platform = o.platform ?? process.platform;
  const abs = path.resolve(file);
  if (platform !== 'darwin' && platform !== 'win32' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { opened: false, why: 'there is no graphical session here (neither DISPLAY nor WAYLAND_DISPLAY is set), so no browser to open' };
  }
  const [program, before] = openerFor(platform);
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !KEY_VARS.includes(k)) childEnv[k] = v;
  return new Promise<OpenResult>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const done = (r: OpenResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(program, [...before, abs], { shell: false, stdio: 'ignore', detached: true, env: childEnv, windowsHide: true });
    } catch (e) {
      done({ opened: false, why: `${program} could not be started (${(e as Error).message})` });
      return;
    }
    timer = setTimeout(() => {
      child.unref();
      done({ opened: true, opener: program });
    }, o.waitMs ?? OPENER_WAIT_MS);
    timer.unref();
    child.on('error', (e: NodeJS.ErrnoException) => {
      done({ opened: false, why: e.code === 'ENOENT' ? `${program}, which opens the default browser, is not installed here` : `${program} could not be started (${e.message})` });
    });
    child.on('exit', (code, signal) => {
      if (code === 0) done({ opened: true, opener: program });
      else done({ opened: false, why: `${program} could not open a browser (${signal ? `ended by ${signal}` : `exit ${code}`})` });
    });
  });
}
