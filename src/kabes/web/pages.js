// pages.js — the one list of the client's pages: where each lives (its path; "{name}" is a
// part of the path given to the page), the module that draws it and the function it exports,
// and its title (a catalog key, "{name}" for that part of the path, or none for "Kabès").
// app.js routes by it; the server reads it to serve these paths and to name each page's
// modules in its head (server/pages.py); the service worker caches every module it reaches
// from it (sw.js). A page is added here and nowhere else.
// What follows "PAGES =" is plain JSON, read as such by the server and the service worker.
// "redraws": the page redraws itself when the language changes (others are drawn again).
// "joining": the page of a link someone was sent (the welcome says so).
// "starts": a module app.js runs (its start(), given the page's parts) as soon as it is in, before
// the page's own modules arrive: a table's summary and socket go out while they download.
// "style": the page's own stylesheet besides app.css (in its head on a first visit, else added
// before it draws).
// "open": a page anyone may read before giving a name (a link sent to a stranger: a replay, a
// player, the rankings); every other page first asks a new visitor's name (the welcome).
// "part": the characters a "{name}" may hold, when not letters, digits, "_" and "-".

export const PAGES = [
  {"path": "/", "module": "home.js", "page": "homePage", "title": null},
  {"path": "/t/{code}", "module": "table.js", "page": "tablePage", "title": "{code}", "redraws": true, "joining": true, "starts": "socket.js"},
  {"path": "/lobby", "module": "lobby.js", "page": "lobbyPage", "title": "lobby.title"},
  {"path": "/learn", "module": "learn.js", "page": "learnPage", "title": "learn.title", "style": "learn.css"},
  {"path": "/learn/{lesson}", "module": "lesson.js", "page": "lessonPage", "title": null, "redraws": true, "part": "A-Za-z0-9_.-", "style": "learn.css"},
  {"path": "/puzzles", "module": "puzzles.js", "page": "puzzlesPage", "title": "puzzle.title", "redraws": true, "style": "learn.css"},
  {"path": "/c", "module": "tournaments.js", "page": "tournamentsPage", "title": "tour.tournaments", "style": "tournaments.css"},
  {"path": "/c/{tid}", "module": "tournament.js", "page": "tournamentPage", "title": "tour.tournament", "style": "tournaments.css"},
  {"path": "/rankings/{variant}", "module": "rankings.js", "page": "rankingsPage", "title": "home.rankings", "open": true},
  {"path": "/p/{id}", "module": "player.js", "page": "playerPage", "title": "player.title", "open": true},
  {"path": "/r/{code}", "module": "replay.js", "page": "replayPage", "title": "replay.title", "style": "replay.css", "starts": "replaystart.js", "open": true}
];

/** The page at pathname, and its parts ({name: value}), or null. */
export function pageAt(pathname) {
  for (const page of PAGES) {
    const names = [];
    const source = page.path.replace(/\{(\w+)\}/g, (_, name) => {
      names.push(name);
      return `([${page.part || "A-Za-z0-9_-"}]+)`;
    });
    const found = pathname.match(new RegExp(`^${source === "/" ? "/" : `${source}/?`}$`));
    if (found) return { page, parts: Object.fromEntries(names.map((n, i) => [n, found[i + 1]])) };
  }
  return null;
}
