// api.js — the server's HTTP API (PROTOCOL.md; the lessons' routes in docs/lessons.md). Every
// function returns the parsed JSON body or throws ApiError {status, code, message}; calls
// that act for a player send the stored guest token as "Authorization: Bearer". A network
// failure, or a GET the server has not begun to answer within ANSWER_WITHIN_MS, is ApiError
// with code "network".

import { store } from "./store.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

/** How long a GET waits for the server's answer to begin. A phone whose network carries
 * nothing (data on and no signal, a Wi-Fi with no way out) leaves a request hanging for
 * minutes rather than failing; past this, the server is taken as unreachable (code "network",
 * as for a refused connection), so a page says so, or plays on the phone (offline.js), where it
 * would show "Loading" with no end (UI.md: never a spinner that waits for the server). The
 * body, once the answer has begun, is read without a limit: a long record on a slow network
 * is still coming. A POST is never cut short: it may have been done already, and the player,
 * not a timer, decides whether to send it again. */
export const ANSWER_WITHIN_MS = 12000;

async function call(method, path, body, auth = true) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const identity = store.identity();
  if (auth && identity) headers.Authorization = `Bearer ${identity.token}`;
  const cut = method === "GET" ? new AbortController() : null;
  const timer = cut ? setTimeout(() => cut.abort(), ANSWER_WITHIN_MS) : undefined;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: cut?.signal,
    });
  } catch (e) {
    const why = cut?.signal.aborted ? `no answer within ${ANSWER_WITHIN_MS / 1000} s` : String(e);
    throw new ApiError(0, "network", why);
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, data?.code || `http_${response.status}`, data?.message);
  }
  return data;
}

export const api = {
  newGuest: (name) => call("POST", "/api/guests", { name }, false),
  me: () => call("GET", "/api/me"),
  variants: () => call("GET", "/api/variants", undefined, false),
  newTable: (spec) => call("POST", "/api/tables", spec),
  table: (code) => call("GET", `/api/tables/${encodeURIComponent(code)}`, undefined, false),
  join: (code) => call("POST", `/api/tables/${encodeURIComponent(code)}/join`, {}),
  rankings: (variant, page = 1) => call("GET", `/api/rankings/${encodeURIComponent(variant)}${page > 1 ? `?page=${page}` : ""}`), // with the token: "me", the caller's place
  player: (id) => call("GET", `/api/players/${encodeURIComponent(id)}`), // with the token: one's own page shows the codes
  logoutEverywhere: () => call("POST", "/api/me/logout", { everywhere: true }),
  recordUrl: (code) => `/api/tables/${encodeURIComponent(code)}/record`,
  lessons: (lang) => call("GET", `/api/lessons?lang=${encodeURIComponent(lang)}`),
  lesson: (id, lang) => call("GET", `/api/lessons/${encodeURIComponent(id)}?lang=${encodeURIComponent(lang)}`, undefined, false),
  tryLesson: (id, lang, body) => call("POST", `/api/lessons/${encodeURIComponent(id)}/try?lang=${encodeURIComponent(lang)}`, body, false),
  tournaments: () => call("GET", "/api/tournaments", undefined, false),
  tournament: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}`, undefined, false),
  newTournament: (spec) => call("POST", "/api/tournaments", spec),
  enterTournament: (id, partner) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/enter`, partner ? { partner } : {}),
  startTournament: (id) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/start`, {}),
  replay: (code, hand) => call("GET", `/api/tables/${encodeURIComponent(code)}/replay?hand=${hand}`, undefined, false), // one finished hand, position by position
  reviewHand: (code, hand) => call("POST", `/api/tables/${encodeURIComponent(code)}/review?hand=${hand}`, {}), // the expert on one's own moves
  record: (code) => call("GET", `/api/tables/${encodeURIComponent(code)}/record`, undefined, false),
  lessonDone: (id) => call("POST", `/api/lessons/${encodeURIComponent(id)}/done`, {}),
  lobby: () => call("GET", "/api/lobby", undefined, false),
  quick: (spec) => call("POST", "/api/quick", spec),
  phrases: () => call("GET", "/api/phrases", undefined, false),
  linkCode: () => call("POST", "/api/me/link", {}),
  link: (code) => call("POST", "/api/link", { code }, false),
  puzzleDaily: () => call("GET", "/api/puzzles/daily"),
  puzzleNext: () => call("GET", "/api/puzzles/next"),
  tryPuzzle: (id, move) => call("POST", `/api/puzzles/${encodeURIComponent(id)}/try`, { move }),
};

let catalogPromise = null;
/** GET /api/variants ({variants, levels, default}), fetched once per page load. */
export function variantCatalog() {
  if (!catalogPromise) {
    catalogPromise = api.variants().catch((e) => {
      catalogPromise = null;
      throw e;
    });
  }
  return catalogPromise;
}

/** The variants list of GET /api/variants, each with its options and traits per seat count. */
export function variants() {
  return variantCatalog().then((d) => d.variants);
}

/** A new table with the settings of the table `s` (its summary): its variant and seats, the
 * options its variant has, its computers. */
export async function newTableLike(s) {
  const list = await variants();
  const spec = list.find((v) => v.id === s.variant)?.options?.[String(s.players)] || {};
  const options = {};
  for (const name of Object.keys(spec)) if (s.options?.[name] !== undefined && s.options[name] !== null) options[name] = s.options[name];
  const computers = {};
  s.seats.forEach((x, i) => {
    if (x && x.kind === "computer") computers[String(i)] = x.level;
  });
  const body = { variant: s.variant, players: s.players, options };
  if (Object.keys(computers).length) body.computers = computers;
  return api.newTable(body);
}
