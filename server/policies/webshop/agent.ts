// One scripted WebShop shopper; the registered webshop policies are settings of it with one flaw
// switched on each. It reads what an agent sees: the instruction, the page text (WebShop's simple
// "[SEP]" or text mode) and info.availableActions / admissibleCommands.
import type { Observation, StepInfo } from '../../../bridges/core/types.ts';
import { createRng, mixSeed } from '../rng.ts';
import type { AgentSession, PolicyContext, PolicyDecision } from '../types.ts';
import { parseGoal, type WebshopGoal } from './goal.ts';

export interface WebshopFlaws {
  /** Searches with the whole instruction and buys the first result as it is (no checks, no options). */
  buysFirstResult?: boolean;
  /** Never chooses options on the item page (and does not check that they exist). */
  neverSelectsOptions?: boolean;
}

const ASIN_RE = /^b0[a-z0-9]{8}$/i;
const MAX_RESULT_PAGES = 3;

interface Listing {
  asin: string;
  title: string;
  price: number;
}

/** The page as chunks, whatever the observation mode (simple "[SEP]" text or one chunk a line). */
export function chunksOf(text: string): string[] {
  const body = text.startsWith('Invalid action:') ? text.slice(text.indexOf('\n\n') + 2) : text;
  const parts = body.includes(' [SEP] ') ? body.split(' [SEP] ') : body.split('\n');
  const chunks = parts
    .map((p) =>
      p
        .replace(/^\[(?:clicked )?button\]\s*/, '')
        .replace(/\s*\[(?:clicked )?button_\]$/, '')
        .trim(),
    )
    .filter(Boolean);
  // Every page repeats the instruction in its header; it must not count as the page's content.
  const at = chunks.indexOf('Instruction:');
  return at >= 0 && at <= 1 ? chunks.slice(at + 2) : chunks;
}

export function parseListings(chunks: string[]): Listing[] {
  const out: Listing[] = [];
  chunks.forEach((c, i) => {
    if (!ASIN_RE.test(c)) return;
    const title = chunks[i + 1] ?? '';
    const price = Number((chunks[i + 2] ?? '').replace(/^\$/, ''));
    if (Number.isFinite(price)) out.push({ asin: c.toLowerCase(), title, price });
  });
  return out;
}

function pageKind(observation: Observation, chunks: string[]): string {
  const data = observation.data;
  if (data && typeof data === 'object' && !Array.isArray(data) && typeof data.page === 'string')
    return data.page;
  if (chunks.includes('Thank you for shopping with us!')) return 'done';
  if (chunks.includes('Buy Now')) return 'item';
  if (chunks.some((c) => /^Page \d+ \(Total results: \d+\)$/.test(c))) return 'results';
  if (chunks.includes('< Prev')) return 'item_sub';
  return 'search';
}

function clickablesOf(info: StepInfo): string[] {
  const available = info.availableActions;
  if (available && typeof available === 'object' && !Array.isArray(available)) {
    const list = (available as { clickables?: unknown }).clickables;
    if (Array.isArray(list)) return list.filter((c): c is string => typeof c === 'string');
  }
  return (info.admissibleCommands ?? [])
    .map((c) => /^click\[(.*)\]$/.exec(c)?.[1])
    .filter((c): c is string => c !== undefined);
}

export class WebshopAgent implements AgentSession {
  /** The policy seed's choices: ties between equally good results, the first-result buyer's pick. */
  private readonly rng: () => number;
  private readonly goal: WebshopGoal;
  private readonly tool: { name: string; arg: string };
  private readonly typeWords: string[];
  private searched = false;
  private resultPagesSeen = 0;
  private titles = new Map<string, string>();
  private rejected = new Set<string>();
  private accepted: string | undefined;
  private current: string | undefined;
  private chosen = new Set<string>();

  constructor(
    context: PolicyContext,
    private readonly flaws: WebshopFlaws,
  ) {
    this.rng = createRng(mixSeed(context.seed, 'webshop-agent'));
    this.goal = parseGoal(context.task.goal);
    this.tool = context.textTool ?? { name: 'act', arg: 'command' };
    this.typeWords = this.goal.productType.split(/[^a-z0-9]+/).filter((w) => w.length > 1);
  }

  async act(observation: Observation, info: StepInfo): Promise<PolicyDecision> {
    const chunks = chunksOf(observation.text);
    const kind = pageKind(observation, chunks);
    const clickables = clickablesOf(info);
    if (kind === 'done') return { kind: 'give_up', reason: 'purchase made' };
    if (kind === 'search') {
      if (this.searched && !this.flaws.buysFirstResult)
        return { kind: 'give_up', reason: 'searched already; nothing suitable found' };
      this.searched = true;
      const query = this.flaws.buysFirstResult
        ? this.goal.request
        : [this.goal.productType, ...this.goal.attributes].join(' ');
      return this.command(`search[${query}]`, 'search for the product type and attributes');
    }
    if (kind === 'results') return this.onResults(chunks, clickables);
    if (kind === 'item') return this.onItem(clickables);
    if (kind === 'item_sub') return this.onFeatures(chunks);
    return this.command('click[back to search]', 'lost: back to the search page');
  }

  private command(command: string, note: string): PolicyDecision {
    return {
      kind: 'act',
      action: { name: this.tool.name, args: { [this.tool.arg]: command } },
      note,
    };
  }

  private onResults(chunks: string[], clickables: string[]): PolicyDecision {
    const listings = parseListings(chunks);
    for (const l of listings) this.titles.set(l.asin, l.title);
    if (this.flaws.buysFirstResult) {
      // It trusts the ranking: one of the top two results, as the seed picks.
      const top = listings.slice(0, 2);
      const first = top[Math.floor(this.rng() * top.length)];
      if (!first) return { kind: 'give_up', reason: 'no results' };
      this.current = first.asin;
      return this.command(`click[${first.asin}]`, 'take a top result');
    }
    const cap = this.goal.priceUpper ?? Number.POSITIVE_INFINITY;
    const candidates = listings
      .filter((l) => !this.rejected.has(l.asin) && l.price <= cap)
      .filter((l) => this.typeWords.every((w) => l.title.toLowerCase().includes(w)))
      .map((l) => ({
        l,
        // Ties between equally good results are broken by the seed.
        order: this.rng(),
        hits: this.goal.attributes.filter((a) => l.title.toLowerCase().includes(a)).length,
      }))
      .sort((a, b) => b.hits - a.hits || a.order - b.order);
    const best = candidates[0];
    if (best) {
      this.current = best.l.asin;
      this.chosen.clear();
      return this.command(`click[${best.l.asin}]`, `check ${best.l.title} (${best.l.price})`);
    }
    // Nothing new on this page that fits the type and the price: the next page, if any.
    this.resultPagesSeen += 1;
    if (clickables.includes('next >') && this.resultPagesSeen < MAX_RESULT_PAGES)
      return this.command('click[next >]', 'no fitting product on this page');
    return { kind: 'give_up', reason: 'no product fits the type, price and attributes' };
  }

  private onItem(clickables: string[]): PolicyDecision {
    const asin = this.current;
    if (this.flaws.buysFirstResult) return this.command('click[buy now]', 'buy as it is');
    if (!asin || this.rejected.has(asin))
      return this.command('click[< prev]', 'back to the results');
    if (this.accepted !== asin) {
      if (!this.flaws.neverSelectsOptions) {
        const missing = this.goal.options.filter((o) => !clickables.includes(o.value));
        if (missing.length > 0) {
          this.rejected.add(asin);
          return this.command(
            'click[< prev]',
            `lacks option ${missing.map((o) => o.value).join(', ')}`,
          );
        }
      }
      return this.command('click[features]', 'check the attributes');
    }
    if (!this.flaws.neverSelectsOptions) {
      const next = this.goal.options.find((o) => !this.chosen.has(o.value));
      if (next) {
        this.chosen.add(next.value);
        return this.command(`click[${next.value}]`, `choose ${next.name} ${next.value}`);
      }
    }
    return this.command('click[buy now]', 'it fits: buy');
  }

  private onFeatures(chunks: string[]): PolicyDecision {
    const asin = this.current;
    if (!asin) return this.command('click[< prev]', 'back');
    const text = `${chunks.join(' ')} ${this.titles.get(asin) ?? ''}`.toLowerCase();
    const missing = this.goal.attributes.filter((a) => !text.includes(a));
    if (missing.length === 0) this.accepted = asin;
    else this.rejected.add(asin);
    return this.command(
      'click[< prev]',
      missing.length === 0 ? 'all attributes present' : `lacks ${missing.join(', ')}`,
    );
  }
}
