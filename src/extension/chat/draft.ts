// The message box's unsent text, kept per workspace (workspaceState) so a reload or a closed view
// loses nothing; the features that put a prompt in the box read it too.
export const DRAFT_KEY = 'aiChat.draft';
