// The webarena environment: one episode = one browser context (its own tabs) on the two loopback
// sites with a fresh site session, driven with WebArena's action space. After every action the
// observation is read back from Chromium (accessibility tree + layout), and the verifier runs
// WebArena's evaluators on the final answer, URL and site pages.
import type { CDPSession, Page } from 'playwright-core';
import { invalidStep, stepResult } from '../core/helpers.ts';
import {
  type Action,
  type ActionableEnv,
  EnvClosedError,
  EnvInfraError,
  type EnvSnapshot,
  type Evaluation,
  type Json,
  type JsonSchema,
  type Observation,
  type ResetOptions,
  type ResetResult,
  type Screenshot,
  type StepInfo,
  type StepResult,
  type TaskFilter,
  type TaskInfo,
  type ToolSpec,
  UnknownTaskError,
} from '../core/types.ts';
import { message } from '../webshop/runtime.ts';
import {
  type AXNode,
  boundsFromSnapshot,
  type IdMemo,
  newIdMemo,
  pyRepr,
  type RenderedTree,
  renderTree,
  truncateTokens,
} from './axtree.ts';
import { requiredContents, stringMatch, unescapeHtml, urlMatch } from './evaluators.ts';
import {
  acquireLease,
  browserTimeoutMs,
  closeWebarenaEpisode,
  openWebarenaEpisode,
  releaseLease,
  toDisplayUrl,
  toRealUrl,
  type WebarenaEpisode,
  webarenaSettings,
} from './runtime.ts';
import { DISPLAY_ORIGIN } from './server.ts';
import { findTask, listWebarenaTasks, type WebarenaTask } from './tasks.ts';
import {
  type BrowserAction,
  commandText,
  ENV_TYPE,
  parseAction,
  SnapshotSchema,
  TEXT_TOOL,
  type WebarenaState,
  webarenaStateSchema,
  webarenaTools,
} from './tools.ts';

export type { WebarenaState } from './tools.ts';

interface Tab {
  page: Page;
  cdp?: CDPSession;
  memo: IdMemo;
}

/** Locator actions give up on an element after this long (the element is then not actionable). */
const ACTION_TIMEOUT_MS = 5_000;
const MARK = `function () {
  const doc = this.ownerDocument || this;
  for (const e of doc.querySelectorAll('[data-wa-target]')) e.removeAttribute('data-wa-target');
  const el = this.nodeType === 1 ? this : this.nodeType === 9 ? this.documentElement : this.parentElement;
  if (el) el.setAttribute('data-wa-target', '1');
  return !!el;
}`;

/** An action the page refused (not a browser failure): reported to the agent as an invalid action. */
class Refused extends Error {}

function isSearchUrl(url: string): boolean {
  try {
    const u = new URL(url);
    const q = u.searchParams.get('q') || u.searchParams.get('search');
    return Boolean(q) && (u.pathname === '/search' || u.pathname.endsWith('/-/issues'));
  } catch {
    return false;
  }
}

function readOptions(options: ResetOptions['options']): {
  maxObsTokens: number;
  viewportOnly: boolean;
} {
  const s = webarenaSettings();
  const max = options?.maxObsTokens;
  const vo = options?.viewportOnly;
  return {
    maxObsTokens:
      typeof max === 'number' && Number.isInteger(max) && max >= 0 ? max : s.maxObsTokens,
    viewportOnly: typeof vo === 'boolean' ? vo : s.viewportOnly,
  };
}

export class WebArenaEnv implements ActionableEnv {
  readonly envType = ENV_TYPE;
  private task: WebarenaTask | undefined;
  private resetOptions: ResetOptions | undefined;
  private episode: WebarenaEpisode | undefined;
  private tabs: Tab[] = [];
  private active = 0;
  private leased = false;
  private closed = false;
  private crashed: string | undefined;
  private broken: string | undefined;
  private opts = readOptions(undefined);
  private actions: Action[] = [];
  /** How many of `actions` a Stage's set-up had made when it called afterSetup (snapshots). */
  private setupAt: number | undefined;
  private tree: RenderedTree | undefined;
  private view: WebarenaState | undefined;
  private lastObservation: Observation = { text: 'No episode yet: call reset with a task.' };
  /** The page as last read (what an invalid action's reply repeats). */
  private pageObservation: Observation | undefined;
  private evaluated: { at: number; evaluation: Evaluation } | undefined;

  async listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return listWebarenaTasks(filter);
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    this.assertOpen();
    const task = findTask(options.taskId);
    if (!task) throw new UnknownTaskError(ENV_TYPE, options.taskId);
    await this.endEpisode();
    if (!this.leased) {
      acquireLease();
      this.leased = true;
    }
    this.task = task;
    this.resetOptions = {
      taskId: options.taskId,
      seed: options.seed,
      ...(options.options ? { options: structuredClone(options.options) } : {}),
    };
    this.opts = readOptions(options.options);
    this.actions = [];
    this.setupAt = undefined;
    this.view = undefined;
    this.tree = undefined;
    this.evaluated = undefined;
    this.lastObservation = { text: 'No episode yet: call reset with a task.' };
    this.pageObservation = undefined;
    this.crashed = undefined;
    this.broken = undefined;
    const episode = await openWebarenaEpisode();
    this.episode = episode;
    this.tabs = [this.watch({ page: episode.page, memo: newIdMemo() })];
    this.active = 0;
    episode.context.on('close', () => {
      if (this.episode === episode) this.crashed ??= 'the browser context closed';
    });
    const start = toRealUrl(task.config.start_url, episode.origins) as string;
    await this.browse('opening the start page', async (page) => {
      await page.goto(start, { waitUntil: 'domcontentloaded' });
    });
    this.view = {
      task: task.info.id,
      url: '',
      site: 'none',
      title: '',
      tabs: [],
      activeTab: 0,
      scrollY: 0,
      visited: [],
      searches: 0,
      formSubmissions: 0,
      changes: [],
      answer: null,
      steps: 0,
      invalidActions: 0,
      done: false,
    };
    await this.refresh();
    return { observation: this.lastObservation, info: this.info() };
  }

  async step(action: Action): Promise<StepResult> {
    this.assertOpen();
    if (this.broken)
      throw new EnvInfraError(`webarena: the browser is unusable (${this.broken}); reset to retry`);
    const view = this.view;
    if (!view || !this.episode)
      return this.invalid('No episode yet: call reset with a task first.');
    if (view.done) return this.invalid('The episode is over: stop was issued.', true, action);
    const parsed = parseAction(action);
    if (!parsed.ok) return this.invalid(parsed.reason, false, action);
    const a = parsed.action;
    const problem = this.precheck(a);
    if (problem) return this.invalid(problem, false, action);
    this.actions.push(structuredClone(action));
    if (a.kind === 'stop') {
      this.view = { ...view, steps: view.steps + 1, answer: a.answer, done: true };
      this.lastObservation = { ...this.lastObservation };
      const evaluation = await this.evaluate();
      return stepResult(this.lastObservation, {
        reward: evaluation.score,
        terminated: true,
        info: this.info(),
      });
    }
    try {
      await this.perform(a);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      this.view = { ...view, steps: view.steps + 1, invalidActions: view.invalidActions + 1 };
      await this.refresh();
      const text = `Invalid action: ${commandText(a)}: ${error.message}\n\n${this.lastObservation.text}`;
      this.lastObservation = { ...this.lastObservation, text };
      return invalidStep(this.lastObservation, { info: this.info() });
    }
    this.view = { ...view, steps: view.steps + 1 };
    await this.refresh();
    return stepResult(this.lastObservation, { info: this.info() });
  }

  observe(): Observation {
    return this.lastObservation;
  }

  async evaluate(): Promise<Evaluation> {
    const view = this.view;
    const task = this.task;
    const counters = { steps: view?.steps ?? 0, invalidActions: view?.invalidActions ?? 0 };
    if (!view || !task || !this.episode)
      return { success: false, score: 0, metrics: { ...counters } };
    if (this.evaluated?.at === this.actions.length)
      return structuredClone(this.evaluated.evaluation);
    const cfg = task.config.eval;
    const metrics: Record<string, number> = {};
    let score = 1;
    let notScorable = false;
    for (const kind of cfg.eval_types) {
      if (kind === 'string_match' && cfg.reference_answers) {
        const s = await stringMatch(
          cfg.reference_answers,
          view.answer ?? '',
          task.config.intent,
          webarenaSettings().fuzzyJudge,
        );
        for (const k of ['exact_match', 'must_include', 'fuzzy_match'] as const)
          if (s[k] !== undefined) metrics[k] = s[k];
        if (s.score === null) notScorable = true;
        else metrics.string_match = s.score;
        score *= s.score ?? 0;
      } else if (kind === 'url_match' && cfg.reference_url) {
        metrics.url_match = urlMatch(cfg.reference_url, view.url);
        score *= metrics.url_match;
      } else if (kind === 'program_html' && cfg.program_html) {
        let s = 1;
        for (const target of cfg.program_html)
          s *= requiredContents(target, await this.locate(target.url, target.locator));
        metrics.program_html = s;
        score *= s;
      }
    }
    if (cfg.reference_answers?.fuzzy_match) metrics.not_scorable = notScorable ? 1 : 0;
    const evaluation: Evaluation = {
      success: score === 1 && !notScorable,
      score: notScorable ? 0 : score,
      metrics: { ...metrics, answered: view.answer === null ? 0 : 1, ...counters },
    };
    this.evaluated = { at: this.actions.length, evaluation };
    return structuredClone(evaluation);
  }

  getEnvState(): Json {
    return this.view ? structuredClone(this.view) : null;
  }

  stateSchema(): JsonSchema {
    return webarenaStateSchema;
  }

  tools(): ToolSpec[] {
    return webarenaTools;
  }

  async saveState(): Promise<EnvSnapshot> {
    this.assertOpen();
    if (!this.resetOptions) throw new Error('webarena: nothing to save before reset');
    return {
      envType: ENV_TYPE,
      reset: structuredClone(this.resetOptions),
      actions: structuredClone(this.actions),
      ...(this.setupAt !== undefined ? { state: { setupAt: this.setupAt } } : {}),
    };
  }

  /** The heavy-runtime strategy: reset (a fresh store from the seed), then replay every action. */
  async restore(snapshot: EnvSnapshot): Promise<void> {
    const parsed = SnapshotSchema.safeParse(snapshot);
    if (!parsed.success)
      throw new Error(
        `webarena: invalid snapshot: ${parsed.error.issues[0]?.message ?? 'bad shape'}`,
      );
    await this.reset(snapshot.reset);
    const setupAt = parsed.data.state?.setupAt;
    for (const [i, action] of (snapshot.actions ?? []).entries()) {
      if (i === setupAt) this.afterSetup();
      await this.step(action);
    }
    if (setupAt !== undefined && setupAt >= (snapshot.actions ?? []).length) this.afterSetup();
  }

  /**
   * The gold plan from the current state (the oracle for `harness audit`): the reference answer for
   * information seeking, the reference URL for navigation, and for changes the form filled in with
   * ids read from the form page itself (loaded in a scratch page of this episode's context).
   */
  async solve(): Promise<Action[] | undefined> {
    const task = this.task;
    const episode = this.episode;
    if (!task || !episode || !this.view) return undefined;
    if (this.view.done) return (await this.evaluate()).success ? [] : undefined;
    const act = (command: string): Action => ({ name: TEXT_TOOL.name, args: { command } });
    const plan: Action[] = [];
    let tree: RenderedTree | undefined;
    for (const step of task.gold) {
      if ('goto' in step) {
        plan.push(act(`goto [${step.goto}]`));
        const real = toRealUrl(step.goto, episode.origins);
        if (!real) return undefined;
        tree = await this.scratch(real, async (page) => this.readTree(page, newIdMemo(), false));
      } else if ('stop' in step) {
        plan.push(act(`stop [${step.stop}]`));
      } else {
        const target = 'type' in step ? step.type : step.click;
        const want = `] ${target.role} ${pyRepr(target.name)}`;
        const hit = [...(tree?.lines ?? [])].find(([, line]) => line.includes(want));
        if (!hit) return undefined;
        plan.push(
          act('type' in step ? `type [${hit[0]}] [${step.text}] [0]` : `click [${hit[0]}]`),
        );
      }
    }
    return plan;
  }

  /** The page the browser shows now (what a Stage's set-up left), for Stage `intro: "state"`. */
  /** After a Stage's set-up: its steps and invalid actions are not the agent's (evaluate's counters). */
  afterSetup(): void {
    if (!this.view) return;
    this.setupAt = this.actions.length;
    this.view = { ...this.view, steps: 0, invalidActions: 0 };
    this.evaluated = undefined;
  }

  describeState(): Observation {
    return this.pageObservation ?? this.lastObservation;
  }

  /** A JPEG of the current tab (the trajectory viewer's screenshot of a step, rebuilt by replay). */
  async screenshot(): Promise<Screenshot | undefined> {
    const tab = this.tabs[this.active];
    if (!tab || !this.episode) return undefined;
    const bytes = await tab.page.screenshot({
      type: 'jpeg',
      quality: 70,
      timeout: browserTimeoutMs(),
    });
    return { mimeType: 'image/jpeg', data: bytes.toString('base64') };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.endEpisode();
    if (this.leased) {
      this.leased = false;
      releaseLease();
    }
  }

  // ---- internals ----------------------------------------------------------------------------

  private watch(tab: Tab): Tab {
    tab.page.on('crash', () => {
      this.crashed = 'the page crashed';
    });
    return tab;
  }

  private async endEpisode(): Promise<void> {
    const episode = this.episode;
    this.episode = undefined;
    this.tabs = [];
    if (episode) await closeWebarenaEpisode(episode);
  }

  private assertOpen(): void {
    if (this.closed) throw new EnvClosedError(ENV_TYPE);
  }

  private precheck(a: BrowserAction): string | undefined {
    if (
      (a.kind === 'click' || a.kind === 'hover' || a.kind === 'type') &&
      !this.tree?.valid.has(a.id)
    )
      return `there is no element with id [${a.id}] on this page.`;
    if (a.kind === 'tab_focus' && (a.index < 0 || a.index >= this.tabs.length))
      return `there is no tab ${a.index} (open tabs: 0 to ${this.tabs.length - 1}).`;
    if (a.kind === 'goto' && this.episode && !toRealUrl(a.url, this.episode.origins))
      return `${a.url} is not a page of the sites (${Object.values(DISPLAY_ORIGIN).join(', ')}).`;
    return undefined;
  }

  /** Runs browser work within the time limit; a crash, a dead browser or a time-out is infra. */
  private async browse<T>(what: string, work: (page: Page) => Promise<T>): Promise<T> {
    const tab = this.tabs[this.active];
    if (!tab || !this.episode) throw new EnvInfraError('webarena: no browser page');
    const limit = browserTimeoutMs();
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${limit} ms`)), limit);
      });
      const run = work(tab.page);
      run.catch(() => undefined);
      return await Promise.race([run, deadline]);
    } catch (error) {
      if (error instanceof Refused) throw error;
      if (this.closed) throw new EnvClosedError(ENV_TYPE);
      const reason = this.crashed ?? message(error);
      this.broken = reason;
      await this.endEpisode();
      throw new EnvInfraError(`webarena: the browser failed while ${what}: ${reason}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** A Playwright failure on a live page is the action's fault (element not actionable, bad key). */
  private refusal(error: unknown, page: Page): never {
    if (this.crashed || page.isClosed() || !this.episode?.context.browser()?.isConnected())
      throw error;
    throw new Refused(message(error).replace(/^\w+\.\w+: /, ''));
  }

  private async cdpOf(tab: Tab): Promise<CDPSession> {
    if (!this.episode) throw new EnvInfraError('webarena: no browser page');
    tab.cdp ??= await this.episode.context.newCDPSession(tab.page);
    return tab.cdp;
  }

  private async target(id: number): Promise<ReturnType<Page['locator']>> {
    const tab = this.tabs[this.active] as Tab;
    const backend = this.tree?.targets.get(id);
    if (backend === undefined) throw new Refused(`element [${id}] is not on the page any more.`);
    const cdp = await this.cdpOf(tab);
    try {
      const { object } = (await cdp.send('DOM.resolveNode', { backendNodeId: backend })) as {
        object: { objectId?: string };
      };
      const marked = (await cdp.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: MARK,
        returnByValue: true,
      })) as { result: { value?: boolean } };
      if (!marked.result.value) throw new Refused(`element [${id}] cannot be acted on.`);
    } catch (error) {
      if (error instanceof Refused) throw error;
      throw new Refused(`element [${id}] is not on the page any more.`);
    }
    return tab.page.locator('[data-wa-target="1"]');
  }

  private async perform(a: BrowserAction): Promise<void> {
    const episode = this.episode as WebarenaEpisode;
    const settings = webarenaSettings();
    await this.browse(commandText(a), async (page) => {
      const t = { timeout: ACTION_TIMEOUT_MS };
      try {
        switch (a.kind) {
          case 'click':
            await (await this.target(a.id)).click(t);
            break;
          case 'hover':
            await (await this.target(a.id)).hover(t);
            break;
          case 'type': {
            const el = await this.target(a.id);
            await el.click(t);
            await page.keyboard.type(a.text);
            if (a.enter) await el.press('Enter', t);
            break;
          }
          case 'press': {
            const focused = page.locator('*:focus');
            if ((await focused.count()) > 0) await focused.first().press(a.key, t);
            else await page.keyboard.press(a.key);
            break;
          }
          case 'scroll':
            await page.evaluate(
              `(() => { const s = document.scrollingElement || document.body; s.scrollTop = s.scrollTop ${a.direction === 'up' ? '-' : '+'} window.innerHeight; })()`,
            );
            break;
          case 'goto':
            await page.goto(toRealUrl(a.url, episode.origins) as string, {
              waitUntil: 'domcontentloaded',
            });
            break;
          case 'go_back':
            await page.goBack({ waitUntil: 'domcontentloaded' });
            break;
          case 'go_forward':
            await page.goForward({ waitUntil: 'domcontentloaded' });
            break;
          case 'new_tab': {
            const fresh = await episode.context.newPage();
            await fresh.setViewportSize(settings.viewport);
            this.tabs.push(this.watch({ page: fresh, memo: newIdMemo() }));
            this.active = this.tabs.length - 1;
            break;
          }
          case 'tab_focus':
            this.active = a.index;
            await (this.tabs[a.index] as Tab).page.bringToFront();
            break;
          case 'close_tab': {
            const [gone] = this.tabs.splice(this.active, 1);
            await gone?.page.close();
            if (this.tabs.length === 0) {
              const fresh = await episode.context.newPage();
              await fresh.setViewportSize(settings.viewport);
              this.tabs.push(this.watch({ page: fresh, memo: newIdMemo() }));
            }
            this.active = this.tabs.length - 1;
            break;
          }
        }
      } catch (error) {
        if (error instanceof Refused) throw error;
        this.refusal(error, page);
      }
      await (this.tabs[this.active] as Tab).page.waitForLoadState('domcontentloaded');
    });
  }

  private async readTree(
    page: Page,
    memo: IdMemo,
    viewportOnly: boolean,
    cdp?: CDPSession,
  ): Promise<RenderedTree> {
    const session = cdp ?? (await (this.episode as WebarenaEpisode).context.newCDPSession(page));
    try {
      const { nodes } = (await session.send('Accessibility.getFullAXTree', {})) as {
        nodes: AXNode[];
      };
      const settings = webarenaSettings();
      if (!viewportOnly) {
        return renderTree(
          nodes,
          undefined,
          { viewportOnly: false, viewport: settings.viewport, scroll: { x: 0, y: 0 } },
          memo,
        );
      }
      const snapshot = (await session.send('DOMSnapshot.captureSnapshot', {
        computedStyles: [],
        includeDOMRects: true,
      })) as unknown as Json;
      const { bounds, scroll } = boundsFromSnapshot(snapshot);
      return renderTree(
        nodes,
        bounds,
        { viewportOnly: true, viewport: settings.viewport, scroll },
        memo,
      );
    } finally {
      if (!cdp) await session.detach().catch(() => undefined);
    }
  }

  /** Reads the current tab back into the tree, the observation and the state view. */
  private async refresh(): Promise<void> {
    const episode = this.episode as WebarenaEpisode;
    const tab = this.tabs[this.active] as Tab;
    const read = await this.browse('reading the page', async (page) => {
      const cdp = await this.cdpOf(tab);
      // Ids come from the whole page (an element scrolled out of view can still be named); what
      // is shown is the viewport when viewportOnly.
      const full = await this.readTree(page, tab.memo, false, cdp);
      const shown = this.opts.viewportOnly ? await this.readTree(page, tab.memo, true, cdp) : full;
      const titles = await Promise.all(this.tabs.map((t) => t.page.title()));
      const scrollY = (await page.evaluate('Math.round(window.scrollY)')) as number;
      return { full, shown, titles, scrollY };
    });
    this.tree = read.full;
    const tabs = this.tabs.map((t, i) => ({
      url: toDisplayUrl(t.page.url(), episode.origins).url,
      title: read.titles[i] ?? '',
    }));
    const here = toDisplayUrl(tab.page.url(), episode.origins);
    const tabLine = tabs
      .map((t, i) =>
        i === this.active ? `Tab ${i} (current): ${t.title}` : `Tab ${i}: ${t.title}`,
      )
      .join(' | ');
    const cut = truncateTokens(`${tabLine}\n\n${read.shown.text}`, this.opts.maxObsTokens);
    this.lastObservation = {
      text: `${cut.text}\n\nURL: ${here.url}`,
      data: { url: here.url, tabs, activeTab: this.active, tokens: cut.tokens, truncated: cut.cut },
    };
    this.pageObservation = this.lastObservation;
    const view = this.view as WebarenaState;
    const before = view.url;
    const moved = here.url !== before;
    const visited = view.visited.includes(here.url)
      ? view.visited
      : [...view.visited, here.url].slice(-100);
    this.view = {
      ...view,
      url: here.url,
      site: here.site,
      title: read.titles[this.active] ?? '',
      tabs,
      activeTab: this.active,
      scrollY: read.scrollY,
      visited,
      searches: view.searches + (moved && isSearchUrl(here.url) ? 1 : 0),
      formSubmissions: episode.store.posts,
      changes: [...episode.store.log],
    };
  }

  /** A scratch page in this episode's context (never one of the agent's tabs), always closed. */
  private async scratch<T>(url: string, use: (page: Page) => Promise<T>): Promise<T> {
    const episode = this.episode as WebarenaEpisode;
    const page = await episode.context.newPage();
    try {
      await page.goto(url, { waitUntil: 'domcontentloaded', timeout: browserTimeoutMs() });
      return await use(page);
    } finally {
      await page.close().catch(() => undefined);
    }
  }

  /** program_html: the text a WebArena locator selects on a site page ('' when it selects nothing). */
  private async locate(url: string, locator: string): Promise<string> {
    const episode = this.episode as WebarenaEpisode;
    const real =
      url === 'last' ? (this.tabs[this.active] as Tab).page.url() : toRealUrl(url, episode.origins);
    if (!real) return '';
    try {
      return await this.scratch(real, async (page) => {
        if (!locator.trim()) return unescapeHtml(await page.content());
        const value = await page.evaluate(
          `(() => { try { return ${locator}; } catch { return ''; } })()`,
        );
        return unescapeHtml(value === null || value === undefined ? '' : String(value));
      });
    } catch (error) {
      throw new EnvInfraError(`webarena: program_html could not read ${url}: ${message(error)}`, {
        cause: error,
      });
    }
  }

  private info(extra: StepInfo = {}): StepInfo {
    return { ...extra };
  }

  private invalid(reason: string, terminated = false, action?: Action): StepResult {
    if (action) this.actions.push(structuredClone(action));
    if (this.view && !this.view.done)
      this.view = {
        ...this.view,
        steps: this.view.steps + 1,
        invalidActions: this.view.invalidActions + 1,
      };
    const page = this.pageObservation;
    this.lastObservation = {
      text: `Invalid action: ${reason}${page ? `\n\n${page.text}` : ''}`,
      ...(page?.data !== undefined ? { data: page.data } : {}),
    };
    return invalidStep(this.lastObservation, { terminated, info: this.info() });
  }
}
