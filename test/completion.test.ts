// Shell completion: candidates come from the commander tree (nouns, verbs, flags, choices and the
// values a command offers) and group names from the local cache that listing groups refreshes —
// never from a request. The scripts are run for real in bash, zsh and fish against the built
// binary (zsh and fish only where installed: CI does not install them, the string checks remain).
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { STATUS_VALUES } from '../commands/events/index.js';
import { SETTING_NAMES } from '../commands/config/index.js';
import { EMAIL_STATUSES, SMS_STATUSES } from '../commands/events/query.js';
import { SETTINGS } from '../src/config/keys.js';
import { parseEncoding } from '../src/import/encoding.js';
import { resolveTimeZone, TIME_ZONE_CODES } from '../src/spec/timezones.js';
import { ptyUnavailable, stripAnsi } from './helpers/pty.js';
import { until } from './helpers/wait.js';
import { INSTALL, SHELLS, ZSH_FPATH } from '../src/cli/completion-scripts.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
  ],
});
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const complete = async (words: string[], env: Record<string, string | undefined> = {}) =>
  (await runCli(['__complete', '--', ...words], { env })).stdout.split('\n').filter(Boolean);

describe('mailctl __complete', () => {
  it('nouns, verbs, flags and enumerated values from the command tree', async () => {
    expect(await complete(['gr'])).toEqual(['groups']);
    expect(await complete(['groups', ''])).toEqual(['create', 'list']);
    expect(await complete(['send', '--sub'])).toEqual(['--subject']);
    expect(await complete(['--sandbox', 'campaign', 'status', 'CP1', '--w'])).toEqual(['--wait']);
    expect(await complete(['completion', ''])).toEqual(['bash', 'fish', 'zsh']);
  });

  it('enumerated values the commands check themselves: --ab, --footer-lang, --service, --encoding, --status, settings, types', async () => {
    expect(await complete(['campaign', 'create', '--ab', ''])).toEqual(['content', 'sender', 'subject']);
    expect(await complete(['campaign', 'create', '--name', 'x', '--footer-lang', ''])).toEqual(['en', 'zh']);
    expect(await complete(['config', 'set-key', '--service', ''])).toEqual(['both', 'campaign', 'notify']);
    expect(await complete(['import', 'x.csv', '--encoding', 'u'])).toEqual(['utf16be', 'utf16le', 'utf8']);
    expect(await complete(['events', '--status', 'b'])).toEqual(['bounce']);
    expect(await complete(['events', '--sms', '--status', ''])).toEqual(['accept', 'bounce', 'delivery']);
    expect(await complete(['events', 'tail', '--status', 'bounce,c'])).toEqual(['bounce,click', 'bounce,complaint']);
    expect(await complete(['config', 'set', 'f'])).toEqual(['field-types', 'footer-lang', 'from-address', 'from-name']);
    expect(await complete(['config', 'set', 'footer-lang', ''])).toEqual(['en', 'zh']);
    expect(await complete(['config', 'set', 'output', ''])).toEqual(['auto', 'csv', 'json', 'table', 'tsv']);
    expect(await complete(['config', 'unset', 'time'])).toEqual(['timezone']);
    expect(await complete(['webhook', 'set', ''])).toEqual(['bounce', 'click', 'complaint', 'delivery', 'open']);
    expect(await complete(['webhook', 'delete', '--sms', ''])).toEqual(['bounce', 'delivery']);
    expect(await complete(['sandbox', 'field', 'add', 'TIER', ''])).toEqual(['date', 'number', 'string']);
    expect(await complete(['sandbox', 'serve', '--shape', 'alt'])).toEqual(['alternate']);
  });

  it('the offered values are the ones the commands accept', () => {
    expect(STATUS_VALUES).toEqual({ email: EMAIL_STATUSES, sms: SMS_STATUSES });
    expect(SETTING_NAMES).toEqual(SETTINGS.map((s) => s.flag));
    for (const e of ['utf8', 'big5', 'utf16le', 'utf16be']) expect(parseEncoding(e)).toBe(e);
  });

  it('--dry-run and --yes complete only where the command takes them', async () => {
    expect(await complete(['groups', 'create', 'X', '--d'])).toEqual(['--dry-run']);
    expect(await complete(['balance', '--d'])).toEqual([]);
    expect(await complete(['campaign', 'delete', 'CP1', '--y'])).toEqual(['--yes']);
    expect(await complete(['groups', 'list', '--y'])).toEqual([]);
  });

  it('profile names complete for config use and delete-profile', async () => {
    const dir = tempDir('mailctl-complete-');
    expect((await runCli(['--profile', 'staging', 'config', 'set', 'timezone', 'Asia/Taipei'], { configDir: dir })).exitCode).toBe(0);
    expect(await complete(['config', 'use', 'st'], { MAILCTL_CONFIG_DIR: dir })).toEqual(['staging']);
    expect(await complete(['config', 'delete-profile', ''], { MAILCTL_CONFIG_DIR: dir })).toEqual(['staging']);
  });

  it('plain `groups list` (one page) refreshes the cache too, keeping names from other pages', async () => {
    const dir = tempDir('mailctl-complete-');
    fs.mkdirSync(path.join(dir, 'cache'));
    fs.writeFileSync(path.join(dir, 'cache', 'groups-profile-default.json'), JSON.stringify({ at: Date.now() - 60_000, groups: [{ sn: 'LS9', name: 'On page two' }] }));
    expect((await runCli(['groups', 'create', 'Plain list'], { sandbox: sb.get() })).exitCode).toBe(0);
    expect((await runCli(['groups', 'list'], { sandbox: sb.get(), env: { MAILCTL_CONFIG_DIR: dir } })).exitCode).toBe(0);
    expect(await complete(['import', 'x.csv', '--group', 'P'], { MAILCTL_CONFIG_DIR: dir })).toEqual(['Plain list']);
    expect(await complete(['import', 'x.csv', '--group', 'On'], { MAILCTL_CONFIG_DIR: dir })).toEqual(['On page two']);
  });

  it('group names and codes from the cache that listing every group wrote; the Tab itself makes no request', async () => {
    const dir = tempDir('mailctl-complete-');
    for (const name of ['Newsletter', 'News VIP']) expect((await runCli(['groups', 'create', name], { sandbox: sb.get() })).exitCode).toBe(0);
    expect((await runCli(['groups', 'list', '--all'], { sandbox: sb.get(), env: { MAILCTL_CONFIG_DIR: dir } })).exitCode).toBe(0);
    const before = sb.get().sandbox.requests().length;
    const found = await complete(['import', 'x.csv', '--group', 'News'], { MAILCTL_CONFIG_DIR: dir });
    expect(found).toEqual(['News VIP', 'Newsletter']);
    expect(await complete(['campaign', 'create', '--exclude', ''], { MAILCTL_CONFIG_DIR: dir })).toEqual(expect.arrayContaining(['Newsletter', expect.stringMatching(/^[A-Z]/)]));
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('a profile with `sandbox true` completes the groups its runs listed (the same scope as the run, without typing --sandbox)', async () => {
    const dir = tempDir('mailctl-complete-');
    // The profile's own sandbox keeps the service's 2 requests/s: the client paces itself as a real run does.
    const run = (argv: string[]) => runCli(argv, { env: { MAILCTL_CONFIG_DIR: dir }, tuning: { rateLimit: true } });
    expect((await run(['--profile', 'sb', 'config', 'set', 'sandbox', 'true'])).exitCode).toBe(0);
    expect((await run(['--profile', 'sb', 'groups', 'create', 'Sandboxed'])).exitCode).toBe(0);
    const listed = await run(['--profile', 'sb', 'groups', 'list', '--all']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(await complete(['--profile', 'sb', 'import', 'x.csv', '--group', 'Sand'], { MAILCTL_CONFIG_DIR: dir })).toEqual(['Sandboxed']);
    expect(await complete(['import', 'x.csv', '--group', 'Sand'], { MAILCTL_CONFIG_DIR: dir, MAILCTL_PROFILE: 'sb' })).toEqual(['Sandboxed']);
    // The default profile is not a sandbox one: it does not see them.
    expect(await complete(['import', 'x.csv', '--group', 'Sand'], { MAILCTL_CONFIG_DIR: dir })).toEqual([]);
  });

  it('a cached name or code with control characters (a hostile service\'s) is never offered to the shell', async () => {
    const dir = tempDir('mailctl-complete-');
    fs.mkdirSync(path.join(dir, 'cache'));
    const groups = [{ sn: 'LS1', name: 'News' }, { sn: 'LS2', name: 'News\u001b]0;owned\u0007' }, { sn: 'LS3\u202e', name: 'Newt' }, { sn: 'LS4', name: 'News\nline' }];
    fs.writeFileSync(path.join(dir, 'cache', 'groups-profile-default.json'), JSON.stringify({ at: Date.now(), groups }));
    expect(await complete(['import', 'x.csv', '--group', ''], { MAILCTL_CONFIG_DIR: dir })).toEqual(['LS1', 'News']);
  });

  it('a cache older than an hour is not offered', async () => {
    const dir = tempDir('mailctl-complete-');
    fs.mkdirSync(path.join(dir, 'cache'));
    fs.writeFileSync(path.join(dir, 'cache', 'groups-profile-default.json'), JSON.stringify({ at: Date.now() - 2 * 3600_000, groups: [{ sn: 'LS1', name: 'Old' }] }));
    expect(await complete(['import', 'x.csv', '--group', ''], { MAILCTL_CONFIG_DIR: dir })).toEqual([]);
  });

  it('a name typed with quotes or backslashes completes as the name itself', async () => {
    const dir = withGroups([{ sn: 'LS1', name: 'My Group' }, { sn: 'LS2', name: 'Other' }]);
    for (const typed of ['My', '"My', "'My G", 'My\\ G', '"My G']) {
      expect(await complete(['import', 'x.csv', '--group', typed], { MAILCTL_CONFIG_DIR: dir }), typed).toEqual(['My Group']);
    }
  });

  it('--timezone (campaign create, preflight, proof) and `config set timezone` offer the 88 zones, each one the commands accept', async () => {
    const all = await complete(['campaign', 'create', '--timezone', '']);
    expect(all).toHaveLength(88);
    expect(all).toEqual([...TIME_ZONE_CODES.map((z) => z.iana)].sort());
    for (const z of all) expect(resolveTimeZone(z), z).not.toBeInstanceOf(Error);
    expect(await complete(['campaign', 'create', '--name', 'N', '--timezone', 'Asia/Tai'])).toEqual(['Asia/Taipei']);
    expect(await complete(['campaign', 'preflight', '--timezone', 'Europe/L'])).toEqual(['Europe/Lisbon', 'Europe/London']);
    expect(await complete(['campaign', 'proof', '--to', 'me@example.com', '--timezone', 'America/New'])).toEqual(['America/New_York']);
    expect(await complete(['config', 'set', 'timezone', 'Asia/Ho'])).toEqual(['Asia/Ho_Chi_Minh', 'Asia/Hong_Kong']);
    expect(await complete(['--profile', 'staging', 'config', 'set', 'timezone', ''])).toHaveLength(88);
  });

  it('--flag=value: as one word (zsh, fish) the flag stays in front; split at "=" (bash) the value alone', async () => {
    expect(await complete(['campaign', 'create', '--timezone=Asia/Tai'])).toEqual(['--timezone=Asia/Taipei']);
    expect(await complete(['campaign', 'create', '--ab=s'])).toEqual(['--ab=sender', '--ab=subject']);
    expect(await complete(['campaign', 'create', '--timezone', '=', 'Asia/Tai'])).toEqual(['Asia/Taipei']);
    expect(await complete(['campaign', 'create', '--timezone', '='])).toHaveLength(88);
    expect(await complete(['config', 'set-key', '--service=c'])).toEqual(['--service=campaign']);
    const dir = withGroups([{ sn: 'LS1', name: 'My Group' }]);
    expect(await complete(['import', 'x.csv', '--group=My'], { MAILCTL_CONFIG_DIR: dir })).toEqual(['--group=My Group']);
    // A flag that takes no value is still completed as a flag.
    expect(await complete(['campaign', 'create', '--wiz'])).toEqual(['--wizard']);
  });
});

/** A config folder whose (default-profile) completion cache holds these groups. */
function withGroups(groups: Array<{ sn: string; name: string }>): string {
  return cacheGroups(tempDir('mailctl-complete-'), groups);
}

function cacheGroups(dir: string, groups: Array<{ sn: string; name: string }>): string {
  fs.mkdirSync(path.join(dir, 'cache'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'cache', 'groups-profile-default.json'), JSON.stringify({ at: Date.now(), groups }));
  return dir;
}

const has = (shell: string) => ['/bin', '/usr/bin', '/usr/local/bin'].some((d) => fs.existsSync(path.join(d, shell)));

/** A folder with the printed script and a `mailctl` on PATH that runs the built binary. */
async function installed(shell: string): Promise<string> {
  const script = (await runCli(['completion', shell])).stdout;
  const shim = tempDir('mailctl-shim-');
  fs.writeFileSync(path.join(shim, 'mailctl'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(root, 'bin', 'mailctl.js')}" "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(shim, `completion.${shell}`), script);
  return shim;
}

function inShell(shell: string, shim: string, args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(shell, args, { env: { PATH: `${shim}:${process.env.PATH}`, HOME: shim, MAILCTL_CONFIG_DIR: shim, XDG_CONFIG_HOME: shim, XDG_DATA_HOME: shim }, timeout: 15_000 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout.split('\n').filter(Boolean)),
    );
  });
}

/** `bash -i` on a pseudo-terminal (`script`, as test/helpers/pty.ts): type keys, wait for the screen. */
function interactiveBash(shim: string, configDir: string) {
  const child = spawn('script', ['-qfec', 'bash --norc --noprofile -i', '/dev/null'], {
    env: { PATH: `${shim}:${process.env.PATH}`, HOME: shim, MAILCTL_CONFIG_DIR: configDir, TERM: 'xterm', INPUTRC: '/dev/null', PS1: '$ ' },
  });
  let screen = '';
  let exited = false;
  child.stdout.on('data', (d: Buffer) => (screen += d.toString('utf8')));
  child.on('exit', () => (exited = true));
  return {
    type: (keys: string) => child.stdin.write(keys),
    async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      let m: RegExpExecArray | null = null;
      await until(`${pattern} on the terminal`, () => {
        if (exited) throw new Error(`bash exited; the screen:\n${stripAnsi(screen)}`);
        return !!(m = pattern.exec(stripAnsi(screen)));
      });
      return m!;
    },
    close: () => child.kill('SIGKILL'),
  };
}

describe('mailctl completion bash|zsh|fish, run in the real shells', () => {
  it('bash: the printed script completes verbs and values', async () => {
    const shim = await installed('bash');
    const probe = (words: string) => `source "${shim}/completion.bash"; COMP_WORDS=(${words}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); _mailctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    expect(await inShell('bash', shim, ['-c', probe('mailctl report ""')])).toEqual(expect.arrayContaining(['export', 'links', 'list', 'metrics']));
    expect(await inShell('bash', shim, ['-c', probe('mailctl events --status bounce,c')])).toEqual(['bounce,click', 'bounce,complaint']);
  });

  // What a person sees: an interactive bash on a pseudo-terminal, keys typed, Tab pressed, and the
  // words the finished line gives mailctl. A name with a space must stay one word.
  it.skipIf(!!ptyUnavailable)('bash, typed at a terminal: a completed name with a space or a quote stays one word, and --flag=value completes', async () => {
    const dir = withGroups([{ sn: 'LS1', name: 'My Group' }, { sn: 'LS2', name: "Bob's list" }]);
    const shim = await installed('bash');
    // Besides __complete, the `mailctl` on PATH prints the words it was given, each in [ ].
    fs.writeFileSync(path.join(shim, 'mailctl'), `#!/bin/sh\nif [ "$1" = __complete ]; then exec "${process.execPath}" "${path.join(root, 'bin', 'mailctl.js')}" "$@"; fi\nprintf '[%s]' "$@"; echo\n`, { mode: 0o755 });
    const bash = interactiveBash(shim, dir);
    try {
      bash.type(`source "${shim}/completion.bash"\r`);
      const line = async (typed: string, n: number) => {
        bash.type(`${typed}\t END${n}\r`);
        return (await bash.waitFor(new RegExp(`^(\\[.*)\\[END${n}\\]$`, 'm')))[1];
      };
      expect(await line('mailctl import x.csv --group My', 1)).toBe('[import][x.csv][--group][My Group]');
      expect(await line('mailctl import x.csv --group "My', 2)).toBe('[import][x.csv][--group][My Group]');
      expect(await line("mailctl import x.csv --group 'Bo", 3)).toBe("[import][x.csv][--group][Bob's list]");
      expect(await line('mailctl import x.csv --group Bo', 4)).toBe("[import][x.csv][--group][Bob's list]");
      expect(await line('mailctl import x.csv --group=My', 5)).toBe('[import][x.csv][--group=My Group]');
      expect(await line('mailctl campaign create --timezone=Asia/Tai', 6)).toBe('[campaign][create][--timezone=Asia/Taipei]');
      expect(await line('mailctl config set timezone Europe/Lon', 7)).toBe('[config][set][timezone][Europe/London]');
    } finally {
      bash.close();
    }
  });

  it.skipIf(!has('zsh'))('zsh: the printed script hands __complete\'s candidates to compadd', async () => {
    const shim = await installed('zsh');
    // compadd and compdef exist only inside the completion system; stand-ins print what they get.
    const probe = (words: string) =>
      `compdef() { :; }; compadd() { [[ $1 == -a ]] && print -rl -- "\${(@P)2}"; }; source "${shim}/completion.zsh"; words=(${words}); CURRENT=\${#words}; _mailctl`;
    expect(await inShell('zsh', shim, ['-f', '-c', probe('mailctl campaign create --ab ""')])).toEqual(['content', 'sender', 'subject']);
    expect(await inShell('zsh', shim, ['-f', '-c', probe('mailctl gr')])).toEqual(['groups']);
    // zsh's words keep the quote typed; compadd quotes what it inserts.
    cacheGroups(shim, [{ sn: 'LS1', name: 'My Group' }]);
    expect(await inShell('zsh', shim, ['-f', '-c', probe(`mailctl import x.csv --group '"My'`)])).toEqual(['My Group']);
    expect(await inShell('zsh', shim, ['-f', '-c', probe('mailctl campaign create --timezone=Asia/Tai')])).toEqual(['--timezone=Asia/Taipei']);
  });

  it.skipIf(!has('fish'))('fish: its own completion engine (complete -C) offers the candidates', async () => {
    const shim = await installed('fish');
    const probe = (line: string) => `source "${shim}/completion.fish"; complete -C '${line}'`;
    const first = (lines: string[]) => lines.map((l) => l.split('\t')[0]);
    expect(first(await inShell('fish', shim, ['--no-config', '-c', probe('mailctl report ')]))).toEqual(expect.arrayContaining(['export', 'links', 'list', 'metrics']));
    expect(first(await inShell('fish', shim, ['--no-config', '-c', probe('mailctl config set-key --service ')]))).toEqual(['both', 'campaign', 'notify']);
    cacheGroups(shim, [{ sn: 'LS1', name: 'My Group' }]);
    expect(first(await inShell('fish', shim, ['--no-config', '-c', probe('mailctl import x.csv --group "My')]))).toEqual(['My Group']);
    expect(first(await inShell('fish', shim, ['--no-config', '-c', probe('mailctl campaign create --timezone=Asia/Tai')]))).toEqual(['--timezone=Asia/Taipei']);
  });

  it('each script says where it goes, as `completion --help` and docs/configuration.md do', async () => {
    const readme = fs.readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
    const help = (await runCli(['completion', '--help'])).stdout;
    for (const shell of SHELLS) {
      expect((await runCli(['completion', shell])).stdout).toContain(`Install: ${INSTALL[shell]}`);
      expect(help).toContain(`  ${INSTALL[shell]}\n`);
      expect(readme.split('\n').some((l) => l === INSTALL[shell] || l.startsWith(`${INSTALL[shell]} `)), shell).toBe(true);
    }
    expect((await runCli(['completion', 'zsh'])).stdout).toContain(ZSH_FPATH);
    expect(readme).toContain(ZSH_FPATH);
  });

  it('every shell\'s script asks the same __complete entry point; an unknown shell is exit 2', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await runCli(['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('mailctl __complete --');
    }
    expect((await runCli(['completion', 'tcsh'])).exitCode).toBe(2);
  });
});
