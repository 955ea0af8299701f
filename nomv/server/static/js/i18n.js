// The pages' words in English and Italian.  The browser's language chooses; the menu changes
// it (kept in localStorage).  A script's own texts may be given in several languages, as a
// table {en = ..., it = ...}: localized() picks one.

const WORDS = {
  en: {
    "nomv": "nomv", "lobby": "Lobby", "language": "Language",
    "log in": "Log in", "log out": "Log out", "register": "Register", "name": "Name",
    "password": "Password", "logged in as": "Logged in as {name}",
    "account needed": "Log in or register to play.",
    "games": "Games", "my matches": "My matches", "open challenges": "Open challenges",
    "standings": "Standings", "no matches": "No matches yet.", "no challenges": "No open challenges.",
    "new match": "New match", "variant": "Variant", "default options": "(default options)",
    "options": "Options", "seats": "Seats", "seat": "Seat {n}", "me": "me",
    "a friend": "a friend (their name)", "open seat": "open (anyone, by invitation link)",
    "computer": "computer", "easy": "easy", "medium": "medium", "hard": "hard", "random": "random",
    "time per move": "Time per move", "no limit": "no limit", "rated": "Rated",
    "start": "Start the match", "invitation": "Invitation link (send it to your friend):",
    "copy": "Copy", "copied": "Copied", "go to match": "Go to the match",
    "join": "Join", "take seat": "Take the seat", "invited to": "You are invited to a match of {game}.",
    "rules": "Rules", "players": "players", "rating": "rating", "games played": "games",
    "wins": "wins", "draws": "draws", "losses": "losses",
    "your turn": "Your turn", "waiting for": "Waiting for {name}", "to move": "{name} to move",
    "thinking": "thinking…", "expects": "expects {percent}%",
    "you": "you", "open": "open", "waiting": "waiting", "declined": "declined",
    "match": "Match", "moves": "Moves", "back to game": "Back to the game",
    "looking back": "Move {ply} of {total}: an earlier position",
    "done": "Done", "take back step": "Take back a step",
    "resign": "Resign", "offer draw": "Offer a draw", "accept draw": "Accept the draw",
    "decline draw": "Decline", "ask takeback": "Ask to take back",
    "accept takeback": "Allow the takeback", "refuse takeback": "Refuse",
    "draw offered": "{name} offers a draw.", "takeback asked": "{name} asks to take back a move.",
    "you offered draw": "You offered a draw.", "you asked takeback": "You asked to take back.",
    "accept": "Accept", "decline": "Decline", "cancel match": "Cancel the match",
    "challenge": "{name} challenges you.",
    "start a move": "Click a highlighted place to start a move.",
    "go on": "{steps}: click the next step ({n} moves possible).",
    "confirm": "{move}: click again, press Done, or go on.",
    "not now": "Not your turn.", "illegal click": "That is not a legal next step.",
    "sending": "Playing {move}…", "won": "{name} wins", "draw": "Draw", "everyone loses": "Everyone loses",
    "match over": "The match is over: {result}.", "connection lost": "Connection lost: reconnecting…",
    "connected": "Live", "error": "Error", "record": "Download the record",
    "resign sure": "Resign this match?", "script error": "The game's script failed: {error}",
    "seconds left": "{time} left to move", "hours": "h", "days": "d", "minutes": "min",
    "ended": "ended", "active": "playing", "cancelled": "cancelled",
    "details": "Details", "home": "nomv", "show": "Show", "player": "Player {n}",
    // (new words are keyed by their English text, as nomv's one catalogue will key them)
    "aborted": "aborted",
  },
  it: {
    "nomv": "nomv", "lobby": "Sala", "language": "Lingua",
    "log in": "Entra", "log out": "Esci", "register": "Registrati", "name": "Nome",
    "password": "Password", "logged in as": "Sei {name}",
    "account needed": "Entra o registrati per giocare.",
    "games": "Giochi", "my matches": "Le mie partite", "open challenges": "Sfide aperte",
    "standings": "Classifica", "no matches": "Nessuna partita.", "no challenges": "Nessuna sfida aperta.",
    "new match": "Nuova partita", "variant": "Variante", "default options": "(opzioni predefinite)",
    "options": "Opzioni", "seats": "Posti", "seat": "Posto {n}", "me": "io",
    "a friend": "un amico (il suo nome)", "open seat": "aperto (chiunque, con il link d'invito)",
    "computer": "computer", "easy": "facile", "medium": "medio", "hard": "difficile", "random": "a caso",
    "time per move": "Tempo per mossa", "no limit": "nessun limite", "rated": "Valida per la classifica",
    "start": "Inizia la partita", "invitation": "Link d'invito (mandalo al tuo amico):",
    "copy": "Copia", "copied": "Copiato", "go to match": "Vai alla partita",
    "join": "Partecipa", "take seat": "Prendi il posto", "invited to": "Sei invitato a una partita di {game}.",
    "rules": "Regole", "players": "giocatori", "rating": "punteggio", "games played": "partite",
    "wins": "vittorie", "draws": "patte", "losses": "sconfitte",
    "your turn": "Tocca a te", "waiting for": "Si aspetta {name}", "to move": "Muove {name}",
    "thinking": "pensa…", "expects": "si aspetta il {percent}%",
    "you": "tu", "open": "aperto", "waiting": "in attesa", "declined": "rifiutata",
    "match": "Partita", "moves": "Mosse", "back to game": "Torna alla partita",
    "looking back": "Mossa {ply} di {total}: una posizione precedente",
    "done": "Fatto", "take back step": "Togli un passo",
    "resign": "Abbandona", "offer draw": "Proponi la patta", "accept draw": "Accetta la patta",
    "decline draw": "Rifiuta", "ask takeback": "Chiedi di ritirare",
    "accept takeback": "Concedi il ritiro", "refuse takeback": "Rifiuta",
    "draw offered": "{name} propone la patta.", "takeback asked": "{name} chiede di ritirare una mossa.",
    "you offered draw": "Hai proposto la patta.", "you asked takeback": "Hai chiesto di ritirare.",
    "accept": "Accetta", "decline": "Rifiuta", "cancel match": "Annulla la partita",
    "challenge": "{name} ti sfida.",
    "start a move": "Fai clic su un punto evidenziato per iniziare una mossa.",
    "go on": "{steps}: fai clic sul passo successivo ({n} mosse possibili).",
    "confirm": "{move}: fai di nuovo clic, premi Fatto, o continua.",
    "not now": "Non tocca a te.", "illegal click": "Non è un passo legale.",
    "sending": "Si gioca {move}…", "won": "Vince {name}", "draw": "Patta", "everyone loses": "Perdono tutti",
    "match over": "La partita è finita: {result}.", "connection lost": "Connessione persa: si riconnette…",
    "connected": "In diretta", "error": "Errore", "record": "Scarica la partita",
    "resign sure": "Abbandonare la partita?", "script error": "Lo script del gioco ha fallito: {error}",
    "seconds left": "{time} per muovere", "hours": "h", "days": "g", "minutes": "min",
    "ended": "finita", "active": "in corso", "cancelled": "annullata",
    "details": "Dettagli", "home": "nomv", "show": "Mostra", "player": "Giocatore {n}",
    "A notification when it is my turn (tab hidden)": "Una notifica quando tocca a me (scheda nascosta)",
    "A sound when it is my turn": "Un suono quando tocca a me",
    "Abort this match? It ends with no result.": "Annullare la partita? Finisce senza risultato.",
    "Abort": "Interrompi la partita",
    "Checking the script…": "Controllo dello script…",
    "Choose a .lua file or paste the script here.": "Scegli un file .lua o incolla qui lo script.",
    "Correspondence": "Per corrispondenza",
    "E-mail address": "Indirizzo e-mail",
    "Finished matches": "Partite finite",
    "First position": "Posizione iniziale",
    "Flip the board": "Gira la scacchiera",
    "Game": "Gioco",
    "In this browser": "In questo browser",
    "Last move": "Ultima mossa",
    "Line {n}: {message}": "Riga {n}: {message}",
    "Live (clock)": "Dal vivo (orologio)",
    "Moves": "Mosse",
    "Next move": "Mossa successiva",
    "No games uploaded yet.": "Nessun gioco caricato.",
    "No rated matches yet.": "Nessuna partita valida per la classifica.",
    "Previous move": "Mossa precedente",
    "Ratings": "Punteggi",
    "Rematch": "Rivincita",
    "Save": "Salva",
    "Saved.": "Salvato.",
    "Script file": "File dello script",
    "Send me an e-mail when it is my turn": "Mandami un'e-mail quando tocca a me",
    "Start a match of it": "Inizia una partita",
    "Start": "Inizio",
    "This browser refused notifications.": "Questo browser ha rifiutato le notifiche.",
    "Time is up": "Tempo scaduto",
    "Upload a game": "Carica un gioco",
    "Upload": "Carica",
    "Warnings:": "Avvisi:",
    "Your account": "Il tuo account",
    "Your games": "I tuoi giochi",
    "Your ratings and matches": "I tuoi punteggi e le tue partite",
    "casual": "amichevole",
    "min + s": "min + s",
    "provisional (few games yet)": "provvisorio (ancora poche partite)",
    "{d}d {h}h": "{d}g {h}h",
    "{game} is in the catalogue.": "{game} è nel catalogo.",
    "{n} days per move": "{n} giorni per mossa",
    "{n} h per move": "{n} h per mossa",
    "{n} min per move": "{n} min per mossa",
    "E-mail (optional, for “your turn” mails)": "E-mail (facoltativa, per gli avvisi «tocca a te»)",
    "aborted": "interrotta",
    "Time control": "Tempo di gioco",
  },
};

export const LANGUAGES = { en: "English", it: "Italiano" };

function chosen() {
  try {
    const kept = localStorage.getItem("nomv.lang");
    if (kept && WORDS[kept]) return kept;
  } catch (e) { /* storage refused: use the browser's language */ }
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return WORDS[browser] ? browser : "en";
}

export let lang = chosen();

export function setLanguage(code) {
  if (!WORDS[code]) return;
  lang = code;
  try { localStorage.setItem("nomv.lang", code); } catch (e) { /* not kept */ }
  document.documentElement.lang = code;
}

// The word for key, with {name} filled in from vars.
export function t(key, vars = {}) {
  const text = (WORDS[lang] && WORDS[lang][key]) || WORDS.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));
}

// A text a script gave, perhaps as {en = ..., it = ...}, in the page's language.
export function localized(value, fallback = "") {
  if (value === null || value === undefined) return fallback;
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (typeof value === "object") {
    if (typeof value[lang] === "string") return value[lang];
    if (typeof value.en === "string") return value.en;
    for (const v of Object.values(value)) if (typeof v === "string") return v;
  }
  return fallback;
}
