// The translations of the panel's strings travel from the host with the page: the host reads
// them from VS Code (vscode.l10n.bundle), the panel passes them to @vscode/l10n. Validated here,
// on the panel's side of the boundary.
import * as z from 'zod/mini';

/** A loaded l10n bundle: English message (with its comment suffix, if any) -> translation. */
export const L10nBundleSchema = z.record(z.string(), z.string());
export type L10nBundle = z.infer<typeof L10nBundleSchema>;

/** The bundle serialized in the page, or undefined when it is missing or not a bundle. */
export function readL10nBundle(serialized: string | undefined): L10nBundle | undefined {
  if (!serialized) return undefined;
  try {
    const parsed = L10nBundleSchema.safeParse(JSON.parse(serialized));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
