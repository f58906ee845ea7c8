// The root help and the help topics: the common workflows in a few lines, `mailctl help
// environment` and `mailctl help exit-codes` with content that cannot drift from the code (every
// exit code, every MAILCTL_ variable the code reads), and `send --help` showing the email options.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { ExitCode } from '../src/core/errors.js';
import { EXAMPLE_FILES, EXIT_MEANINGS } from '../src/cli/help-topics.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceText(dir: string): string {
  let text = '';
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.ts')) text += fs.readFileSync(path.join(e.parentPath, e.name), 'utf8');
  }
  return text;
}

describe('mailctl --help', () => {
  it('shows the common workflows and the help topics', async () => {
    const r = await runCli(['--help']);
    expect(r.exitCode).toBe(0);
    for (const line of ['mailctl import examples/contacts.csv', 'mailctl campaign create --file', 'mailctl report sync --out', '17 * * * * mailctl report sync', 'mailctl send --to ci@example.com']) {
      expect(r.stdout).toContain(line);
    }
    expect(r.stdout).toContain('mailctl help environment');
    expect(r.stdout).toContain('mailctl help exit-codes');
  });

  it('send --help lists the email options, not only a pointer to `send email`', async () => {
    const r = await runCli(['send', '--help']);
    for (const flag of ['--to <address>', '--subject <text>', '--html-file <file>', '--from <address>', '--recipients-file <file>', '--resume [journal]', '--dry-run']) {
      expect(r.stdout).toContain(flag);
    }
  });
});

describe('mailctl help exit-codes', () => {
  it('lists every exit code the CLI has, each with its meaning', async () => {
    const r = await runCli(['help', 'exit-codes']);
    expect(r.exitCode).toBe(0);
    for (const [name, code] of Object.entries(ExitCode)) {
      expect(EXIT_MEANINGS[name], `a meaning for ${name}`).toBeTruthy();
      const start = EXIT_MEANINGS[name].split(' ').slice(0, 2).join(' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(r.stdout).toMatch(new RegExp(`^  ${code} +${start}`, 'm'));
    }
  });

  it('works after global flags, and an unknown topic is a usage error naming the topics', async () => {
    expect((await runCli(['--profile', 'ops', 'help', 'exit-codes'])).stdout).toContain('Exit codes');
    const r = await runCli(['help', 'exit-code']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no command or help topic "exit-code"');
    expect(r.stderr).toContain('environment, exit-codes');
    expect((await runCli(['help', 'groups'])).stdout).toContain('Usage: mailctl groups');
  });
});

describe('mailctl help NOUN VERB', () => {
  it("shows the verb's own help, as NOUN VERB --help does (aliases too, after global flags)", async () => {
    const own = (await runCli(['campaign', 'create', '--help'])).stdout;
    expect(own).toMatch(/^Usage: mailctl campaign create /);
    expect((await runCli(['help', 'campaign', 'create'])).stdout).toBe(own);
    expect((await runCli(['--profile', 'ops', 'help', 'campaign', 'create'])).stdout).toBe(own);
    expect((await runCli(['help', 'campaigns', 'rm'])).stdout).toMatch(/^Usage: mailctl campaign delete\|rm /);
    expect((await runCli(['help', 'report', 'links'])).stdout).toMatch(/^Usage: mailctl report links /);
    expect((await runCli(['help', 'campaign'])).stdout).toMatch(/^Usage: mailctl campaign\|campaigns /);
  });
});

describe('mailctl help environment', () => {
  it('names every MAILCTL_ variable the code reads, and NO_COLOR and CI', async () => {
    const r = await runCli(['help', 'environment']);
    expect(r.exitCode).toBe(0);
    const read = new Set((sourceText(path.join(root, 'src')) + sourceText(path.join(root, 'commands'))).match(/MAILCTL_[A-Z_]+[A-Z]/g));
    expect(read.size).toBeGreaterThan(5);
    for (const name of [...read, 'NO_COLOR', 'CI']) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });
});

// The help and the docs name files as examples/…: they ship in the package, and `mailctl help
// examples` says where an installed mailctl keeps them.
describe('mailctl help examples', () => {
  it('lists every file in examples/ and nothing else', () => {
    expect(EXAMPLE_FILES.map(([f]) => f).sort()).toEqual(fs.readdirSync(path.join(root, 'examples')).sort());
  });

  it('the package ships examples/, and an installed copy points at its own folder', async () => {
    // What `npm pack` would ship (no scripts run, nothing written).
    const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
    expect(packed.status, packed.stderr).toBe(0);
    const shipped: string[] = JSON.parse(packed.stdout)[0].files.map((f: { path: string }) => f.path);
    for (const [file] of EXAMPLE_FILES) expect(shipped).toContain(`examples/${file}`);
    // Those files, laid out as an install would lay them out, with the dependencies beside them.
    const installed = path.join(tempDir('mailctl-installed-'), 'node_modules', 'mailctl');
    for (const f of shipped) fs.cpSync(path.join(root, f), path.join(installed, f));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(installed, 'node_modules'));
    const r = spawnSync(process.execPath, [path.join(installed, 'bin', 'mailctl.js'), 'help', 'examples'], { encoding: 'utf8', env: { PATH: process.env.PATH, MAILCTL_CONFIG_DIR: tempDir() } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`  ${path.join(installed, 'examples')}\n`);
    expect(r.stdout).toContain(`cp -R ${path.join(installed, 'examples')} .`);
  });
});
