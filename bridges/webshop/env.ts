// The webshop environment: one episode = one browser context on the shop, driven with WebShop's
// actions `search[query]` and `click[element]`. State is read back from the page's URL after every
// navigation; the verifier scores the purchased product against the goal with WebShop's reward.
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
  type StepInfo,
  type StepResult,
  type TaskFilter,
  type TaskInfo,
  type ToolSpec,
  UnknownTaskError,
} from '../core/types.ts';
import { findProduct } from './catalogue.ts';
import {
  availableActions,
  CLICK_SCRIPT,
  type ObservationMode,
  type PageRead,
  READ_PAGE_SCRIPT,
  renderObservation,
  SUBMIT_SEARCH_SCRIPT,
} from './observation.ts';
import { getReward } from './reward.ts';
import {
  acquireLease,
  closeEpisode,
  type Episode,
  message,
  openEpisode,
  releaseLease,
  webshopOptions,
} from './runtime.ts';
import { parseRoute } from './site.ts';
import { findTask, listWebshopTasks, type WebshopTask } from './tasks.ts';
import {
  ENV_TYPE,
  MAX_QUERY_CHARS,
  parseAction,
  SnapshotSchema,
  type WebshopState,
  webshopStateSchema,
  webshopTools,
} from './tools.ts';

/** The state view's type (tools.ts), also from here for the env's users. */
export type { WebshopState } from './tools.ts';

function readMode(options: ResetOptions['options']): ObservationMode {
  return options?.observation === 'text' ? 'text' : 'simple';
}

export class WebShopEnv implements ActionableEnv {
  readonly envType = ENV_TYPE;
  private task: WebshopTask | undefined;
  private resetOptions: ResetOptions | undefined;
  private episode: Episode | undefined;
  private leased = false;
  private closed = false;
  private crashed: string | undefined;
  private broken: string | undefined;
  private mode: ObservationMode = 'simple';
  private actions: Action[] = [];
  private read: PageRead | undefined;
  private view: WebshopState | undefined;
  private lastObservation: Observation = { text: 'No episode yet: call reset with a task.' };

  async listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return listWebshopTasks(filter);
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
    this.mode = readMode(options.options);
    this.actions = [];
    // Nothing of the previous episode may survive a failed reset.
    this.view = undefined;
    this.read = undefined;
    this.lastObservation = { text: 'No episode yet: call reset with a task.' };
    this.crashed = undefined;
    this.broken = undefined;
    const episode = await openEpisode(task.goal);
    this.episode = episode;
    episode.page.on('crash', () => {
      this.crashed = 'the page crashed';
    });
    episode.context.on('close', () => {
      if (this.episode === episode) this.crashed ??= 'the browser context closed';
    });
    const base = {
      task: task.info.id,
      visited: [],
      purchased: null,
      steps: 0,
      invalidActions: 0,
      done: false,
    };
    await this.browse('opening the shop', async (page) => {
      await page.goto(`${episode.baseUrl}/`, { waitUntil: 'domcontentloaded' });
    });
    this.view = this.viewFromPage(base);
    this.lastObservation = this.observation();
    return { observation: this.lastObservation, info: this.info() };
  }

  async step(action: Action): Promise<StepResult> {
    this.assertOpen();
    if (this.broken)
      throw new EnvInfraError(`webshop: the browser is unusable (${this.broken}); reset to retry`);
    const view = this.view;
    if (!view || !this.episode)
      return this.invalid('No episode yet: call reset with a task first.');
    if (view.done)
      return this.invalid('The episode is over: the purchase has been made.', true, action);
    const parsed = parseAction(action);
    if (!parsed.ok) return this.invalid(parsed.reason, false, action);
    const { verb, arg } = parsed;
    if (verb === 'search') {
      if (!view.hasSearchBar)
        return this.invalid(
          'There is no search bar on this page: click[back to search] first.',
          false,
          action,
        );
      if (arg === '')
        return this.invalid('Empty query: write search[<what to look for>].', false, action);
      if (arg.length > MAX_QUERY_CHARS)
        return this.invalid(
          `The query is longer than ${MAX_QUERY_CHARS} characters.`,
          false,
          action,
        );
    }
    let index = -1;
    if (verb === 'click') {
      const target = arg.toLowerCase();
      index = (this.read?.items ?? [])
        .filter((i) => i.kind === 'click')
        .findIndex((i) => i.text.toLowerCase() === target);
      if (index < 0)
        return this.invalid(
          `'${arg}' is not clickable on this page. Clickable: ${view.clickables.join(', ')}.`,
          false,
          action,
        );
    }
    this.actions.push(structuredClone(action));
    await this.browse(`${verb}[${arg}]`, async (page) => {
      const loaded = page.waitForEvent('domcontentloaded');
      // When the click fails first, its error is the one reported; this one must not go unhandled.
      loaded.catch(() => undefined);
      // The page's own activation behaviour (link follow, form submit) in one round trip: Playwright's
      // mouse click adds actionability checks that cost ~3x a step on a loaded machine.
      if (verb === 'search')
        await page.evaluate(`(${SUBMIT_SEARCH_SCRIPT})(${JSON.stringify(arg)})`);
      else await page.evaluate(`(${CLICK_SCRIPT})(${index})`);
      await loaded;
    });
    const before = view;
    this.view = this.viewFromPage({
      task: before.task,
      visited: before.visited,
      purchased: before.purchased,
      steps: before.steps + 1,
      invalidActions: before.invalidActions,
      done: false,
    });
    this.lastObservation = this.observation();
    const reward = this.view.done ? (await this.evaluate()).score : 0;
    return stepResult(this.lastObservation, {
      reward,
      terminated: this.view.done,
      info: this.info(),
    });
  }

  observe(): Observation {
    return this.lastObservation;
  }

  /** Stage's callback after its set-up: the steps and invalid actions so far were the set-up's. */
  afterSetup(): void {
    if (!this.view) return;
    this.view = { ...this.view, steps: 0, invalidActions: 0 };
  }

  async evaluate(): Promise<Evaluation> {
    const view = this.view;
    const counters = { steps: view?.steps ?? 0, invalidActions: view?.invalidActions ?? 0 };
    const bought = view?.purchased;
    const product = bought ? findProduct(bought.asin) : undefined;
    if (!bought || !product || !this.task)
      return { success: false, score: 0, metrics: { purchased: 0, ...counters } };
    const r = getReward(product, this.task.goal, bought.price, bought.options);
    return {
      success: r.reward === 1,
      score: r.reward,
      metrics: {
        purchased: 1,
        r_type: r.rType,
        r_att: r.rAtt,
        ...(r.rOption !== null ? { r_option: r.rOption } : {}),
        r_price: r.rPrice ? 1 : 0,
        title_score: Math.round(r.titleScore * 1e4) / 1e4,
        ...counters,
      },
    };
  }

  getEnvState(): Json {
    return this.view ? structuredClone(this.view) : null;
  }

  stateSchema(): JsonSchema {
    return webshopStateSchema;
  }

  tools(): ToolSpec[] {
    return webshopTools;
  }

  async saveState(): Promise<EnvSnapshot> {
    this.assertOpen();
    if (!this.resetOptions) throw new Error('webshop: nothing to save before reset');
    return {
      envType: ENV_TYPE,
      reset: structuredClone(this.resetOptions),
      actions: structuredClone(this.actions),
      // Plain JSON by construction (the view is a zod-checked plain object, the observation text + data).
      ...(this.view
        ? {
            state: JSON.parse(
              JSON.stringify({ view: this.view, observation: this.lastObservation }),
            ) as Json,
          }
        : {}),
    };
  }

  /**
   * Rebuilds a snapshot: reset, then either open the saved page directly (a page is a function of
   * its URL and the goal) or, without a saved state, replay the actions (the heavy-runtime strategy).
   */
  async restore(snapshot: EnvSnapshot, o: { replay?: boolean } = {}): Promise<void> {
    const parsed = SnapshotSchema.safeParse(snapshot);
    if (!parsed.success)
      throw new Error(
        `webshop: invalid snapshot: ${parsed.error.issues[0]?.message ?? 'bad shape'}`,
      );
    await this.reset(snapshot.reset);
    const saved = parsed.data.state;
    const direct =
      saved && saved.view.task === snapshot.reset.taskId && /^\/(?!\/)/.test(saved.view.url);
    if (o.replay || !saved || !direct) {
      for (const action of snapshot.actions ?? []) await this.step(action);
      return;
    }
    const episode = this.episode;
    if (!episode) throw new EnvInfraError('webshop: no browser page');
    if (saved.view.url !== '/')
      await this.browse('restoring the saved page', async (page) => {
        await page.goto(`${episode.baseUrl}${saved.view.url}`, { waitUntil: 'domcontentloaded' });
      });
    this.actions = structuredClone(snapshot.actions ?? []);
    this.view = structuredClone(saved.view);
    this.lastObservation = structuredClone(saved.observation) as Observation;
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

  private async endEpisode(): Promise<void> {
    const episode = this.episode;
    this.episode = undefined;
    if (episode) await closeEpisode(episode);
  }

  private assertOpen(): void {
    if (this.closed) throw new EnvClosedError(ENV_TYPE);
  }

  /** Runs browser work; any failure is the runtime's (infra), and the episode's context is closed. */
  private async browse(
    what: string,
    work: (page: Episode['page']) => Promise<void>,
  ): Promise<void> {
    const episode = this.episode;
    if (!episode) throw new EnvInfraError('webshop: no browser page');
    const limit = webshopOptions().timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    try {
      // evaluate() has no timeout of its own: a hung renderer must still end the step.
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${limit} ms`)), limit);
      });
      const read = (async () => {
        await work(episode.page);
        return (await episode.page.evaluate(READ_PAGE_SCRIPT)) as PageRead;
      })();
      read.catch(() => undefined);
      this.read = await Promise.race([read, deadline]);
    } catch (error) {
      if (this.closed) throw new EnvClosedError(ENV_TYPE);
      const reason = this.crashed ?? message(error);
      this.broken = reason;
      await this.endEpisode();
      throw new EnvInfraError(`webshop: the browser failed while ${what}: ${reason}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  private viewFromPage(
    carried: Pick<
      WebshopState,
      'task' | 'visited' | 'purchased' | 'steps' | 'invalidActions' | 'done'
    >,
  ): WebshopState {
    const episode = this.episode;
    const read = this.read;
    if (!episode || !read) throw new EnvInfraError('webshop: no page has been read');
    const url = new URL(episode.page.url());
    const route = parseRoute(url);
    const actions = availableActions(read);
    const visited =
      route.asin && route.kind !== 'done' && !carried.visited.includes(route.asin)
        ? [...carried.visited, route.asin]
        : carried.visited;
    const product = route.asin ? findProduct(route.asin) : undefined;
    const purchased =
      route.kind === 'done' && product
        ? { asin: product.asin, options: { ...route.options }, price: product.price }
        : carried.purchased;
    return {
      ...carried,
      page: route.kind,
      url: `${url.pathname}${url.search}`,
      query: route.query,
      resultsPage: route.page,
      asin: route.kind === 'item' || route.kind === 'item_sub' ? route.asin : null,
      subpage: route.sub,
      selectedOptions: route.kind === 'done' ? {} : { ...route.options },
      clickables: actions.clickables,
      hasSearchBar: actions.has_search_bar,
      visited,
      purchased,
      done: purchased !== null,
    };
  }

  private observation(): Observation {
    const read = this.read;
    const view = this.view;
    if (!read || !view) return this.lastObservation;
    return { text: renderObservation(read, this.mode), data: { page: view.page, url: view.url } };
  }

  private info(extra: StepInfo = {}): StepInfo {
    const view = this.view;
    if (!view) return { ...extra, admissibleCommands: [] };
    return {
      ...extra,
      admissibleCommands: view.done ? [] : view.clickables.map((c) => `click[${c}]`),
      availableActions: { has_search_bar: view.hasSearchBar, clickables: [...view.clickables] },
    };
  }

  private invalid(reason: string, terminated = false, action?: Action): StepResult {
    if (action) this.actions.push(structuredClone(action));
    if (this.view && !this.view.done)
      this.view = {
        ...this.view,
        steps: this.view.steps + 1,
        invalidActions: this.view.invalidActions + 1,
      };
    const page = this.read && this.view ? `\n\n${renderObservation(this.read, this.mode)}` : '';
    this.lastObservation = {
      text: `Invalid action: ${reason}${page}`,
      ...(this.view ? { data: { page: this.view.page, url: this.view.url } } : {}),
    };
    return invalidStep(this.lastObservation, { terminated, info: this.info() });
  }
}
