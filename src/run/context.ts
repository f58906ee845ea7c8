// What a command gets to do its work: streams, environment, global flags, clock, prompts,
// and lazy getters for config and the two API clients. Nothing here is global, so tests
// build a Context over memory streams and a loopback sandbox. Reading the settings is part of
// every command's start (static imports: one chunk with the runtime, src/cli/runtime.ts); the
// config writer (conf), the API clients (ky), the sandbox and the dry-run recorder load when
// a command first asks for them.
import type { IO } from './io.js';
import type { Clock } from '../core/clock.js';
import type { Prompter } from './prompter.js';
import type { ConfigStore } from '../config/store.js';
import { maskKey, resolveSettings, type Settings, type Service } from '../config/settings.js';
import { readConfig } from '../config/read.js';
import { keepPrivate } from '../config/private-dir.js';
import type { CampaignClient } from '../api/campaign.js';
import type { NotifyClient } from '../api/notify.js';
import type { FetchLike } from '../api/http.js';
import type { DryRunRecorder } from '../api/recorder.js';
import { AuthError, UsageError } from '../core/errors.js';
import { configDir } from '../config/paths.js';
import { suggester, suggestWithNote } from '../core/suggest.js';
import type { Env } from '../core/env.js';

/** The environment type lives in src/core/env.ts (the settings and the hint builder read it too); re-exported for the commands. */
export type { Env };

export interface Globals {
  profile?: string;
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  /** false with --no-input */
  input: boolean;
  sandbox: boolean;
}

/** Knobs tests turn; defaults are what a user gets. */
export interface Tuning {
  rateLimit: boolean;
  retryBaseMs: number;
  pollMinMs: number;
  pollMaxMs: number;
  /** How long a --wait keeps polling through failed status lookups that are safe to repeat. */
  waitThroughFaultsMs: number;
  /** How long an API request may take, its answer read whole (a command's --timeout shortens it: Context.limitRequestsTo). */
  timeoutMs: number;
}

export const DEFAULT_TUNING: Tuning = { rateLimit: true, retryBaseMs: 500, pollMinMs: 1000, pollMaxMs: 5000, timeoutMs: 30_000, waitThroughFaultsMs: 120_000 };

export interface ContextInit {
  io: IO;
  env: Env;
  globals: Globals;
  clock: Clock;
  signal: AbortSignal;
  prompter: Prompter;
  /** Replaces the network for everything (tests); otherwise global fetch or the in-process sandbox. */
  fetch?: FetchLike;
  tuning?: Partial<Tuning>;
  /** --dry-run: the clients are built over the recording transport; nothing is sent. */
  dryRun?: boolean;
  /** The recorder a dry run records into (the MCP server reads a planned run's requests from it). */
  recorder?: DryRunRecorder;
  /**
   * Wraps the fetch of the two API clients only, in a real run (the MCP server's check that a
   * confirmed plan makes only the planned requests). Uploads and downloads keep the bare
   * transport: src/api/files.ts pins the network connection when it is handed global fetch.
   */
  wrapApiFetch?: (fetch: FetchLike) => FetchLike;
  /** The run's words after `mailctl`, less --profile and --sandbox (see Context.commandLine). */
  commandLine?: readonly string[];
}

export class Context {
  readonly io: IO;
  readonly env: Env;
  readonly globals: Globals;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly prompter: Prompter;
  readonly tuning: Tuning;
  readonly configDir: string;
  /**
   * --dry-run: every request goes to the recording transport (src/api/recorder.ts) and none to
   * the network, the in-process sandbox or a test's fetch; a missing key is no error.
   */
  readonly dryRun: boolean;
  /**
   * The words this run was started with after `mailctl`, less --profile and --sandbox, which
   * suggest() puts back as the run chose them: `sameCommand(ctx)` (src/core/suggest.ts) is the
   * line that runs it again, for work that is safe to redo from the start (nothing sent yet).
   */
  readonly commandLine: readonly string[];
  private readonly fetchOverride?: FetchLike;
  private readonly wrapApiFetch?: (fetch: FetchLike) => FetchLike;
  private recorderP?: Promise<DryRunRecorder>;
  private configP?: Promise<ConfigStore>;
  private settingsP?: Promise<Settings>;
  private transportP?: Promise<FetchLike>;
  private campaignP?: Promise<CampaignClient>;
  private notifyP?: Promise<NotifyClient>;

  constructor(init: ContextInit) {
    this.io = init.io;
    this.env = init.env;
    this.globals = init.globals;
    this.clock = init.clock;
    this.signal = init.signal;
    this.prompter = init.prompter;
    this.fetchOverride = init.fetch;
    this.tuning = { ...DEFAULT_TUNING, ...init.tuning };
    this.configDir = configDir(init.env);
    this.dryRun = !!init.dryRun;
    this.wrapApiFetch = init.wrapApiFetch;
    if (init.recorder) this.recorderP = Promise.resolve(init.recorder);
    this.commandLine = init.commandLine ?? [];
  }

  /**
   * A command's --timeout, given: no API request of this run takes longer than it, its answer
   * read whole, nor longer than the default 30 s (issue 19 item 7: "30 s, or the command's
   * --timeout"). The clients are made with it, so it is called before the run's first request.
   */
  limitRequestsTo(ms: number): void {
    if (this.campaignP || this.notifyP) throw new Error('Context.limitRequestsTo() comes before the first request of the run.');
    this.tuning.timeoutMs = Math.min(this.tuning.timeoutMs, ms);
  }

  config(): Promise<ConfigStore> {
    return (this.configP ??= import('../config/store.js').then((m) => m.openConfig(this.configDir, (message) => this.io.warn(message), suggester(this))));
  }

  settings(): Promise<Settings> {
    return (this.settingsP ??= (async () => {
      // Commands that change the config have opened the writer; the others only read the file.
      const store = this.configP ? await this.configP : readConfig(this.configDir, suggester(this));
      if (!this.configP) keepPrivate(this.configDir, (m) => this.io.warn(m), undefined, { dryRun: this.dryRun });
      const s = resolveSettings({ profileFlag: this.globals.profile, sandboxFlag: this.globals.sandbox, env: this.env, store, cmd: suggester(this) });
      if (s.sandbox) {
        const { SANDBOX_BASE, SANDBOX_KEYS, SANDBOX_SENDER } = await import('../sandbox/constants.js');
        // --sandbox replaces the services; a real key is never sent to it (or needed).
        s.campaignUrl = `${SANDBOX_BASE}/campaign`;
        s.notifyUrl = `${SANDBOX_BASE}/notify`;
        s.campaignKey = SANDBOX_KEYS.campaign;
        s.notifyKey = SANDBOX_KEYS.notify;
        s.keySource = { campaign: 'sandbox', notify: 'sandbox' };
        // A sender the sandbox treats as verified, so a fresh sandbox can send and create
        // campaigns; the profile's own choice still wins. A copy: the stored profile is untouched.
        const filled = (['fromAddress', 'fromName'] as const).filter((k) => !s.profile[k]);
        s.profile = { ...s.profile, fromAddress: s.profile.fromAddress || SANDBOX_SENDER.address, fromName: s.profile.fromName || SANDBOX_SENDER.name };
        s.sandboxDefaults = filled;
      }
      return s;
    })());
  }

  /** The fetch used for every request: the dry run's recorder, the test override, the in-process sandbox, or the network. */
  transport(): Promise<FetchLike> {
    return (this.transportP ??= (async () => {
      if (this.dryRun) return (await this.recorder()).fetch;
      if (this.fetchOverride) return this.fetchOverride;
      const s = await this.settings();
      if (s.sandbox) {
        const { inProcessSandboxFetch } = await import('../sandbox/inprocess.js');
        return inProcessSandboxFetch(this.configDir, this.clock);
      }
      return globalThis.fetch;
    })());
  }

  /** What --dry-run recorded (src/run/output/dry-run.ts prints it). */
  recorder(): Promise<DryRunRecorder> {
    return (this.recorderP ??= (async () => {
      const { DryRunRecorder } = await import('../api/recorder.js');
      return new DryRunRecorder(maskKey);
    })());
  }

  campaign(): Promise<CampaignClient> {
    return (this.campaignP ??= (async () => {
      const [{ CampaignClient }, opts] = await Promise.all([import('../api/campaign.js'), this.httpOptions('campaign')]);
      // A dry run sends nothing, so it neither waits for nor spends the key's shared budget.
      if (this.dryRun) return new CampaignClient({ ...opts, clock: this.clock, rateLimit: false });
      // One warning, under -v only, if the budget cannot be shared (see src/api/ratelimit-shared.ts).
      const budget = { dir: `${this.configDir}/ratelimit`, warn: this.globals.verbose ? (m: string) => this.io.warn(m) : undefined };
      return new CampaignClient({ ...opts, clock: this.clock, rateLimit: this.tuning.rateLimit, budget });
    })());
  }

  notify(): Promise<NotifyClient> {
    return (this.notifyP ??= (async () => {
      const [{ NotifyClient }, opts] = await Promise.all([import('../api/notify.js'), this.httpOptions('notify')]);
      return new NotifyClient(opts);
    })());
  }

  /** The key of one service, or an AuthError that names the command that fixes it. */
  async apiKey(service: Service): Promise<string> {
    const s = await this.settings();
    const key = service === 'campaign' ? s.campaignKey : s.notifyKey;
    if (!key) {
      const envName = service === 'campaign' ? 'MAILCTL_CAMPAIGN_API_KEY' : 'MAILCTL_NOTIFY_API_KEY';
      const label = service === 'campaign' ? 'campaign service' : 'notification service';
      throw new AuthError(
        `No API key for the ${label} in profile "${s.profileName}".`,
        // The profile goes in as a flag even when the config file chose it (suggest() adds it when
        // a flag or MAILCTL_PROFILE did): the line then stores the key where this run looks for it.
        `Run ${suggestWithNote({ env: this.env, globals: { ...this.globals, profile: this.globals.profile ?? (s.profileName !== 'default' ? s.profileName : undefined) } }, 'config', 'set-key', '--service', service)}, set ${envName} (or MAILCTL_API_KEY), or add --sandbox to try the built-in sandbox without an account.`,
      );
    }
    return key;
  }

  /** The key of one service when one is configured (a dry run needs none). */
  async keyIfAny(service: Service): Promise<string | undefined> {
    const s = await this.settings();
    return (service === 'campaign' ? s.campaignKey : s.notifyKey) || undefined;
  }

  private async httpOptions(service: Service) {
    const s = await this.settings();
    // A dry run sends nothing: without a key it builds the requests with a placeholder, shown as "(your key)".
    const apiKey = this.dryRun ? (await this.keyIfAny(service)) ?? (await import('../api/recorder.js')).DRY_RUN_KEY : await this.apiKey(service);
    // Under --dry-run the requests are printed whole; a trace of answers that never come would mislead.
    const trace = this.globals.verbose && !this.dryRun ? (line: string) => this.io.error(this.io.paint('dim', line)) : undefined;
    const transport = await this.transport();
    return {
      baseUrl: service === 'campaign' ? s.campaignUrl : s.notifyUrl,
      apiKey,
      fetch: this.wrapApiFetch && !this.dryRun ? this.wrapApiFetch(transport) : transport,
      trace,
      timeoutMs: this.tuning.timeoutMs,
      retryBaseMs: this.tuning.retryBaseMs,
      signal: this.signal,
      // Masked in whatever a service answers (src/api/redact.ts): an echoed key is never printed.
      knownKeys: [s.campaignKey, s.notifyKey],
      // The recorder answers with nothing: nothing is read (src/api/http.ts).
      dryRun: this.dryRun,
    };
  }

  /** Refuses (exit 2) when a prompt would be needed but nobody can answer it. */
  requirePrompt(what: string, flag: string): void {
    if (!this.io.canPrompt) throw new UsageError(`${what} needs confirmation and there is no terminal to ask on.`, `Pass ${flag} to go ahead without asking.`);
  }
}
