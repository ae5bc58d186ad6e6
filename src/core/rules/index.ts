// Rules a repository already keeps for other tools (AGENTS.md, Copilot, Claude Code, Cursor,
// Continue, Cline, Windsurf): read with their formats' meaning and chosen for a request with why.
export * from './frontMatter';
export * from './patterns';
export * from './ruleFormats';
export * from './chooseRules';
export * from './requestRules';
export * from './ruleFiles';
