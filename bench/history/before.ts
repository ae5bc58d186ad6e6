// The webview/protocol figures of the chat path as it was before this design (0.1.0: the session
// posts webview messages itself and every state change posts the whole conversation), measured the
// same way as bench/history/webview.ts, for comparison:
//
//   npx tsx bench/history/before.ts [git ref, default BEFORE_REF]
//
// The ref's src/ is extracted under node_modules/.cache/history-before/<ref>/ (so its imports
// resolve to this project's node_modules); its ChatSession runs against the reference server and
// its webview bundle runs in Chromium, with the state snapshot its panel built.
import { execSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { ROOT } from '../../test/render/harness';
import { measureChatPath, printFigures, type BenchChat, type ChatPath } from './webview';

/** The last commit with the 0.1.0 chat path. */
const BEFORE_REF = 'bf36135';

// The old modules are loaded at run time from the extracted tree: typed loosely on purpose.
type Loose = any;

function extract(ref: string): string {
  const dir = resolve(ROOT, 'node_modules', '.cache', 'history-before', ref.replace(/[^\w.-]/g, '_'));
  mkdirSync(dir, { recursive: true });
  execSync(`git archive ${ref} src | tar -x -C "${dir}"`, { cwd: ROOT, stdio: 'inherit', shell: '/bin/bash' });
  return dir;
}

function beforePath(dir: string): ChatPath {
  return {
    entry: relative(ROOT, resolve(dir, 'src', 'webview', 'main.ts')),
    async chat(serverUrl, client, conversation): Promise<BenchChat> {
      const core: Loose = await import(resolve(dir, 'src', 'core', 'index.ts'));
      const listeners: Array<(m: { type: string }) => void> = [];
      const post = (m: { type: string }) => listeners.forEach((l) => l(m));
      const settings = { model: 'swift-chat', search: false, temperature: 1, fontSize: 0, baseUrl: serverUrl };
      const store: Loose = new core.ConversationStore(new core.MemoryConversationStorage());
      await store.save(conversation);
      await store.open(conversation.id);
      // The state snapshot 0.1.0's panel posted on every change (ChatPanelController.buildState).
      const state = () => {
        const view = session.view();
        return {
          type: 'state',
          state: {
            conversation: view.conversation,
            busy: view.busy,
            ...(view.sendError ? { sendError: view.sendError } : {}),
            models: core.toModelSummaries([{ valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true }]),
            modelsLoading: false,
            selectedModel: settings.model,
            selectedModelCost: 1,
            search: settings.search,
            temperature: settings.temperature,
            fontSize: settings.fontSize,
            hasKey: true,
          },
        };
      };
      const session: Loose = new core.ChatSession({
        store,
        backend: () => client,
        settings: () => ({ ...settings, stream: true, systemPrompt: '' }),
        modelCost: () => 1,
        post,
        stateChanged: () => post(state()),
        flushIntervalMs: 24,
        maxHistoryChars: 4000,
      });
      return {
        initialMessages: () => [state()],
        settingsChanged: () => [state()],
        send: (text) => session.send(text),
        onPost: (l) => listeners.push(l),
      };
    },
  };
}

if (require.main === module) {
  const ref = process.argv[2] ?? BEFORE_REF;
  void measureChatPath(beforePath(extract(ref)), 'streamEnd').then(
    (f) => printFigures(f, `before (${ref})`),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
