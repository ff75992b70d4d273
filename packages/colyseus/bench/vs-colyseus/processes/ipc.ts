/** A helper process's side of child.ts: answers each request by its `type`, with the same `id`. */
export function serve(handlers: Record<string, (args: Record<string, unknown>) => unknown>): void {
  process.on('message', async (m: { id: number; type: string } & Record<string, unknown>) => {
    try {
      const handler = handlers[m.type];
      if (handler === undefined) throw new Error(`no request "${m.type}"`);
      process.send!({ id: m.id, result: await handler(m) });
    } catch (e) {
      process.send!({ id: m.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  });
  process.on('SIGTERM', () => process.exit(0));
}
