import { appendFileSync } from 'node:fs';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from '@playwright/test';

/**
 * Every screen a journey shows is checked with axe-core as it appears (issue 15: "the journeys run axe on
 * every screen"). A script in each page watches the screen (path, query, language and open dialogs), waits
 * until it has settled (no DOM change for a moment, no transition running), runs axe once per screen, and
 * reports what it found to the test, which fails on the violations `blocks` names.
 */

/** axe's rules as the journeys run them: all of its default ones, and the experimental label-in-name check. */
export const RUN_OPTIONS: axe.RunOptions = {
  rules: { 'label-content-name-mismatch': { enabled: true } },
  // A frame that never answers (a third party's, say) costs seconds, not axe's default minute.
  frameWaitTime: 3000,
  // Only violations are read: axe spends less describing what passed.
  resultTypes: ['violations'],
};

/**
 * What fails a journey: serious or critical violations, and content outside landmarks (`region`, moderate in
 * axe, but issue 15 asks for every piece of content in a landmark).
 */
export function blocks(violation: { id: string; impact?: string | null }): boolean {
  return violation.impact === 'serious' || violation.impact === 'critical' || violation.id === 'region';
}

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

export interface ScreenReport {
  screen: string;
  violations: Violation[];
}

declare global {
  interface Window {
    axe: typeof axe;
    __a11yReport?: (report: ScreenReport) => Promise<void>;
    __a11yFlush?: () => Promise<void>;
    __a11yPause?: () => Promise<void>;
    __a11yResume?: () => void;
  }
}

/**
 * Runs in every page and frame before its own scripts. Each document checks itself: axe reaching into frames
 * would post messages that the page's own listeners hear (the embedded scheduler's parent listens).
 */
function watchScreens(options: axe.RunOptions) {
  const QUIET_MS = 400;
  const LONGEST_WAIT_MS = 2500;
  /** How long a check waits for a transition (a dialog fading in or out), even on a screen that never rests. */
  const TRANSITION_WAIT_MS = 1500;
  /** How many times a screen changed while axe ran on it before its result is kept anyway (a clock ticks). */
  const MOST_RETRIES = 2;
  const checked = new Set<string>();
  const retries = new Map<string, number>();
  let changes = 0;
  let timer: number | undefined;
  let changingSince = 0;
  let transitionSince = 0;
  let running: Promise<void> | undefined;
  /** While a journey runs axe itself (`expectAccessible`): one axe run at a time per document. */
  let paused = 0;

  const dialogNames = () =>
    [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].map(
      (dialog) =>
        dialog.getAttribute('aria-label') ??
        document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent ??
        'dialog',
    );
  const screenOf = () =>
    [document.documentElement.lang, location.pathname + location.search, ...dialogNames()].join(' ');
  // Spinners turn for ever; a fading modal or notification is what would be measured half-drawn.
  const transitionRunning = () =>
    document
      .getAnimations()
      .some((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity);

  const check = async (): Promise<void> => {
    const screen = screenOf();
    if (checked.has(screen) || !document.body) return;
    checked.add(screen);
    const changesBefore = changes;
    try {
      const results = await window.axe.run(document, options);
      // Measured while the screen moved (a dialog closing as the next opens): measured again once it rests.
      const tries = retries.get(screen) ?? 0;
      if ((changes !== changesBefore || transitionRunning()) && tries < MOST_RETRIES) {
        retries.set(screen, tries + 1);
        checked.delete(screen);
        return;
      }
      const violations = results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        nodes: violation.nodes.map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`),
      }));
      await window.__a11yReport?.({ screen, violations });
    } catch {
      // The screen changed under axe (a navigation): the next screen is checked when it settles.
      checked.delete(screen);
    }
  };
  const runCheck = async () => {
    while (running) await running;
    if (paused) return;
    running = check().finally(() => (running = undefined));
    await running;
  };
  /** Resolves once no transition runs, or after TRANSITION_WAIT_MS. */
  const transitionsDone = async () => {
    const since = Date.now();
    while (transitionRunning() && Date.now() - since < TRANSITION_WAIT_MS) {
      await new Promise((resolve) => window.setTimeout(resolve, 50));
    }
  };
  const settle = () => {
    window.clearTimeout(timer);
    timer = undefined;
    if (transitionRunning()) {
      transitionSince ||= Date.now();
      if (Date.now() - transitionSince < TRANSITION_WAIT_MS) {
        timer = window.setTimeout(settle, 100);
        return;
      }
    }
    transitionSince = 0;
    changingSince = 0;
    void runCheck();
  };
  const changed = () => {
    changes++;
    if (!changingSince) changingSince = Date.now();
    window.clearTimeout(timer);
    timer = window.setTimeout(settle, Date.now() - changingSince > LONGEST_WAIT_MS ? 0 : QUIET_MS);
  };

  new MutationObserver(changed).observe(document, { subtree: true, childList: true, attributes: true });
  window.addEventListener('popstate', changed);
  window.__a11yPause = async () => {
    paused++;
    while (running) await running;
  };
  window.__a11yResume = () => {
    paused--;
    changed();
  };
  window.__a11yFlush = async () => {
    window.clearTimeout(timer);
    timer = undefined;
    for (let attempt = 0; attempt <= MOST_RETRIES && !checked.has(screenOf()); attempt++) {
      await transitionsDone();
      await runCheck();
    }
  };
}

/** Runs `analyse` while no page script of `page` runs axe (axe refuses two runs at once in a document). */
export async function withScreenChecksPaused<T>(page: Page, analyse: () => Promise<T>): Promise<T> {
  const frames = page.frames();
  await Promise.all(frames.map((frame) => frame.evaluate(() => window.__a11yPause?.()).catch(() => undefined)));
  try {
    return await analyse();
  } finally {
    await Promise.all(frames.map((frame) => frame.evaluate(() => window.__a11yResume?.()).catch(() => undefined)));
  }
}

/** The screens checked during one test, in order, and what failed on them. */
export class AccessibilityAudit {
  readonly reports: (ScreenReport & { page: string })[] = [];
  private readonly pages = new Set<Page>();

  async watch(context: BrowserContext) {
    await context.exposeBinding('__a11yReport', ({ page }, report: ScreenReport) => {
      this.reports.push({ ...report, page: page.url() });
    });
    await context.addInitScript({ content: axe.source });
    await context.addInitScript(watchScreens, { ...RUN_OPTIONS, iframes: false });
    for (const page of context.pages()) this.track(page);
    context.on('page', (page) => this.track(page));
    // A journey closes a second person's context when it is done with it: check its last screen first.
    const close = context.close.bind(context);
    context.close = async (options) => {
      await Promise.all(context.pages().map((page) => this.flush(page)));
      return close(options);
    };
  }

  /** Watches the contexts a journey opens for other people too, until `restore()`. */
  watchNewContexts(browser: Browser): () => void {
    const newContext = browser.newContext.bind(browser);
    browser.newContext = async (options) => {
      const context = await newContext(options);
      await this.watch(context);
      return context;
    };
    return () => {
      browser.newContext = newContext;
    };
  }

  /** Checks the screens still showing, then lists what blocks, one line per violation and screen. */
  async finish(): Promise<string[]> {
    await Promise.all([...this.pages].map((page) => this.flush(page)));
    return this.reports.flatMap(({ screen, violations }) =>
      violations.filter(blocks).map((v) => `${screen} — ${v.id} (${v.impact}): ${v.help} [${v.nodes.join(', ')}]`),
    );
  }

  /** Appends every report to `file` (JSON lines), for a before/after count of violations per screen. */
  log(file: string, test: string) {
    for (const report of this.reports) appendFileSync(file, JSON.stringify({ test, ...report }) + '\n');
  }

  private track(page: Page) {
    this.pages.add(page);
    page.on('close', () => this.pages.delete(page));
  }

  private async flush(page: Page) {
    if (page.isClosed()) return;
    await Promise.all(
      page.frames().map((frame) => frame.evaluate(() => window.__a11yFlush?.()).catch(() => undefined)),
    );
  }
}
