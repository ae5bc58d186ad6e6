// Journey 48: a team's prompt file as a slash command. The workspace has
// `.github/prompts/review.prompt.md`; typing `/rev` in the chat's box lists it, Enter chooses it,
// VS Code asks for its `${input:focus}`, and the box then holds the prompt with the editor's
// selection and file, unsent, with the price of the model the prompt names (and a notification that
// names the field it does not support); sent as it is, the request carries the expanded text to
// that model.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { e2e } from '../setup';
import { chatRequests, readyWithKey, resetServer } from '../steps';
import { waitFor, type Workbench } from '../workbench';

const PROMPT = `---
description: Review the selection e2e-slash
argument-hint: focus area
model: code-pro
tools: ['codebase']
---
Review \${file} e2e-slash-review:

\${selection}

Focus: \${input:focus:naming}
`;

describe('Journey 48: Slash commands from prompt files', () => {
  let wb: Workbench | undefined;
  let folder = '';

  after(async () => {
    if (wb) await (await wb.chat()).type('');
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('/review from .github/prompts expands with the selection and the value asked, unsent; the request carries it', async () => {
    resetServer();
    const { demo } = e2e();
    folder = path.join(demo.profile.workspace, '.github');
    mkdirSync(path.join(folder, 'prompts'), { recursive: true });
    writeFileSync(path.join(folder, 'prompts', 'review.prompt.md'), PROMPT);
    // The repository has its prompt files when the window opens (a file added later is the
    // extension-host suite's "changed on disk is read again").
    await e2e().wb.reloadWindow();
    wb = await readyWithKey();
    const chat = await wb.chat();
    await chat.newChat();
    await wb.openFile('inventory.ts');
    await wb.selectLines(9, 15); // function stockValue
    const chatAgain = await wb.chat();
    const box = chatAgain.message();

    // The list shows the file's command.
    const option = chatAgain.frame.getByRole('option', { name: /\/review/ });
    await waitFor(async () => {
      await box.fill('');
      await box.pressSequentially('/rev');
      return (await option.count()) > 0;
    }, 'the / list never showed /review');
    const listbox = chatAgain.frame.getByRole('listbox', { name: 'Slash commands' });
    assert.equal(await listbox.count(), 1, 'the list is a named listbox');
    assert.match((await option.first().textContent()) ?? '', /Review the selection e2e-slash/);
    assert.match((await option.first().textContent()) ?? '', /\.github\/prompts\/review\.prompt\.md/);

    const before = chatRequests().length;
    await box.press('Enter');
    // VS Code asks for ${input:focus}.
    await wb.answerInput('naming and error handling e2e-focus');
    let value = '';
    await waitFor(
      async () => {
        value = await box.inputValue();
        return value.includes('e2e-slash-review');
      },
      () => `the box never got the expanded prompt; it holds: ${JSON.stringify(value.slice(0, 300))}`,
    );
    assert.match(value, /^Review [^\n]*inventory\.ts e2e-slash-review:\n\n/);
    assert.match(value, /export function stockValue/);
    assert.match(value, /Focus: naming and error handling e2e-focus$/);
    assert.equal(chatRequests().length, before, 'nothing was sent');
    assert.equal(await chatAgain.articles('You').count(), 0, 'no message was added to the conversation');

    // The model it names: its price is shown before sending, and the user is told (with the field not supported).
    const cost = chatAgain.frame.locator('.composer-bar .cost');
    let costText = '';
    await waitFor(
      async () => {
        costText = (await cost.textContent()) ?? '';
        return costText === 'Next message: Code Pro · 3 credits';
      },
      () => `the cost line shows ${JSON.stringify(costText)}`,
    );
    await wb.waitForNotification(/\/review: .*Not supported, left out: tools\..*This message goes to Code Pro · 3 credits/);
    await wb.clearNotifications();

    // Sent as it is: the request carries the expanded text, to the prompt's model.
    await chatAgain.sendButton().click();
    await waitFor(async () => (await chatAgain.articles('Assistant').count()) > 0, 'no reply appeared after Send', 60_000);
    await chatAgain.waitForIdle();
    const sent = chatRequests().pop();
    const last = sent?.messages?.[sent.messages.length - 1]?.content ?? '';
    assert.match(last, /e2e-slash-review/);
    assert.match(last, /total \+= item\.quantity \* item\.unitPrice/);
    assert.match(last, /Focus: naming and error handling e2e-focus/);
    assert.equal(sent?.model, 'code-pro', 'the request went to the model the prompt names');
    assert.doesNotMatch((await cost.textContent()) ?? '', /Code Pro/, 'the next message goes to the selected model again');
    await wb.runCommand('View: Close All Editors');
  });
});
