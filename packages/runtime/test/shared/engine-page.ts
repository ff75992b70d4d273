/** A page in Firefox or WebKit for the end-to-end tests (scripts/e2e-support.mjs, `openEnginePage`). */
export interface EnginePage {
  readonly engine: string;
  /** Console errors and uncaught exceptions (WebKit's WebDriver classic reports none: empty there). */
  readonly errors: string[];
  goto(url: string): Promise<void>;
  /** A JavaScript expression, evaluated in the page; a promise is awaited. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** A PNG of the viewport. */
  screenshot(): Promise<Buffer>;
  close(): Promise<void>;
}
