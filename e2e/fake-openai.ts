// Where the e2e's fake OpenAI-compatible endpoint listens (started by playwright.config.ts, next to
// the studio's port), for the config and the specs alike.
export const FAKE_OPENAI_PORT = 3222;
export const FAKE_OPENAI_URL = `http://127.0.0.1:${FAKE_OPENAI_PORT}/v1`;
/** The modes it runs in (server/policies/testing/fake-openai-model.mjs). */
export const FAKE_OPENAI_MODES = 'no-tools,usage,reasoning';
/** A model the fake always answers 429 (Retry-After: 2) for (fake-openai-model.mjs). */
export const FAKE_RATE_LIMITED_MODEL = 'rate-limited';
