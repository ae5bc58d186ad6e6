// Usage from the replies' own charges, kept locally and summed per day (user's time zone) and per model.

export interface UsageRecord {
  /** When the reply finished, ms since epoch. */
  at: number;
  model: string;
  /** The charge of the reply; undefined when it could not be known. */
  charged?: number;
  /** The charge is the model's price or a balance change not measured from this reply alone. */
  approximate?: true;
  /** Where the turn was asked, when not the chat panel (e.g. "aichat", "edit"). */
  surface?: string;
}

export interface UsageRow {
  day: string;
  model: string;
  replies: number;
  credits: number;
  /** Replies whose charge is unknown (not in credits). */
  unknown: number;
  /** Replies whose charge (in credits) is approximate. */
  approximate: number;
}

export interface UsageReport {
  rows: UsageRow[];
  /** Replies and credits per place the turns were asked ('panel' for the chat's own), when any was asked elsewhere. */
  surfaces: Array<{ surface: string; replies: number; credits: number }>;
  total: number;
  replies: number;
  unknown: number;
  approximate: number;
}

/** Most records kept; the oldest go first. */
export const USAGE_LIMIT = 5000;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The calendar day of a moment in a time zone offset given in minutes as Date#getTimezoneOffset returns it. */
export function dayOf(at: number, tzOffsetMinutes: number): string {
  return new Date(at - tzOffsetMinutes * 60_000).toISOString().slice(0, 10);
}

export function appendUsage(records: readonly UsageRecord[], rec: UsageRecord, limit = USAGE_LIMIT): UsageRecord[] {
  const next = [...records, rec];
  return next.length > limit ? next.slice(next.length - limit) : next;
}

/** Reads stored records of unknown shape, keeping the valid ones. */
export function readUsage(saved: unknown): UsageRecord[] {
  if (!Array.isArray(saved)) return [];
  const out: UsageRecord[] = [];
  for (const r of saved as unknown[]) {
    if (!r || typeof r !== 'object') continue;
    const { at, model, charged, approximate, surface } = r as Record<string, unknown>;
    if (typeof at !== 'number' || !Number.isFinite(at) || typeof model !== 'string') continue;
    const known = typeof charged === 'number' && Number.isFinite(charged);
    out.push({
      at,
      model,
      ...(known ? { charged } : {}),
      ...(known && approximate === true ? { approximate: true as const } : {}),
      ...(typeof surface === 'string' && /^[a-z]{1,20}$/.test(surface) ? { surface } : {}),
    });
  }
  return out;
}

/**
 * Sums the records with from <= at < to, per day and model (days newest first, models by name).
 * tzOffset(at) gives the zone offset of that moment, so days across a DST change stay right.
 */
export function summarizeUsage(
  records: readonly UsageRecord[],
  tzOffset: (at: number) => number,
  from = -Infinity,
  to = Infinity,
): UsageReport {
  const rows = new Map<string, UsageRow>();
  const surfaces = new Map<string, { surface: string; replies: number; credits: number }>();
  let total = 0;
  let replies = 0;
  let unknown = 0;
  let approximate = 0;
  for (const r of records) {
    if (r.at < from || r.at >= to) continue;
    const day = dayOf(r.at, tzOffset(r.at));
    const key = `${day}\u0000${r.model}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { day, model: r.model, replies: 0, credits: 0, unknown: 0, approximate: 0 }));
    row.replies++;
    replies++;
    const where = r.surface ?? 'panel';
    let place = surfaces.get(where);
    if (!place) surfaces.set(where, (place = { surface: where, replies: 0, credits: 0 }));
    place.replies++;
    if (r.charged !== undefined) place.credits += r.charged;
    if (r.charged === undefined) {
      row.unknown++;
      unknown++;
    } else {
      row.credits += r.charged;
      total += r.charged;
      if (r.approximate) {
        row.approximate++;
        approximate++;
      }
    }
  }
  const sorted = [...rows.values()]
    .map((r) => ({ ...r, credits: round2(r.credits) }))
    .sort((a, b) => (a.day === b.day ? a.model.localeCompare(b.model) : a.day < b.day ? 1 : -1));
  const places = [...surfaces.values()].map((p) => ({ ...p, credits: round2(p.credits) })).sort((a, b) => b.replies - a.replies || a.surface.localeCompare(b.surface));
  return { rows: sorted, surfaces: places.length > 1 || places[0]?.surface !== 'panel' ? places : [], total: round2(total), replies, unknown, approximate };
}
