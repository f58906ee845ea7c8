// The root help and the help topics: the common workflows in a few lines, `mailctl help
// environment` and `mailctl help exit-codes` with content that cannot drift from the code (every
// exit code, every MAILCTL_ variable the code reads), and `send --help` showing the email options.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { ExitCode } from '../src/cli/errors.js';
import { EXIT_MEANINGS } from '../src/cli/help-topics.js';

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
    for (const flag of ['--to <address>', '--subject <text>', '--html-file <file>', '--from <address>', '--recipients <file>', '--resume [journal]', '--dry-run']) {
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

describe('mailctl help environment', () => {
  it('names every MAILCTL_ variable the code reads, and NO_COLOR and CI', async () => {
    const r = await runCli(['help', 'environment']);
    expect(r.exitCode).toBe(0);
    const read = new Set((sourceText(path.join(root, 'src')) + sourceText(path.join(root, 'commands'))).match(/MAILCTL_[A-Z_]+[A-Z]/g));
    expect(read.size).toBeGreaterThan(5);
    for (const name of [...read, 'NO_COLOR', 'CI']) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });
});
