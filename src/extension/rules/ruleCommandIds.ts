// The id of AI Chat: Rules, for those that name it at startup (@aichat's reply, the lazy room's
// stand-in, the chat's actions) without loading the rules' code.
export const SHOW_RULES_COMMAND = 'aiChat.showRules';
