// Clicks to moves: the browser's copy of nomv/moveinput.py (MoveInput), rule for rule.
//
// A move is a list of steps, each the id of something the player clicks.  MoveInput keeps the
// steps clicked so far and answers what the page needs: the legal moves the clicks can still
// become (candidates), the ids that can be clicked next (nextSteps, to highlight them), the move
// the clicks already form (complete), whether it needs confirming (a longer move goes on from
// it: Done, Enter, or its last step clicked again), and what a click does.  Moves with
// anyOrder accept their steps in any order; a move plays itself as soon as exactly one legal
// move matches the clicks.
//
// Both copies are tested against one file of cases (tests/moveinput_cases.json), by pytest
// and by node's test runner, so that the two cannot drift apart.  The texts (prompt, whyNot)
// are the Python's own messages, in the page's language through t (i18n.js); `names` says how
// messages name a step (the server's step_names: Nonads' slot:1,0 is the slot labelled 1,0).

export const SELECT = "select";    // a step was added; the move is not finished
export const CONFIRM = "confirm";  // a step was added; the steps form a move that could go on
export const PLAY = "play";        // the move is decided: play moves[result.move]
export const BACK = "back";        // a step was taken back
export const RESTART = "restart";  // the click did not continue the move but starts another one
export const ILLEGAL = "illegal";  // nothing happened

function counts(steps) {
  const c = new Map();
  for (const s of steps) c.set(s, (c.get(s) || 0) + 1);
  return c;
}

function matches(steps, anyOrder, clicked) {
  if (clicked.length > steps.length) return false;
  if (!anyOrder) return clicked.every((s, i) => steps[i] === s);
  const have = counts(steps);
  for (const [s, n] of counts(clicked)) if ((have.get(s) || 0) < n) return false;
  return true;
}

function remaining(steps, anyOrder, clicked) {
  if (!anyOrder) return steps.slice(clicked.length, clicked.length + 1);
  const left = counts(steps);
  for (const s of clicked) left.set(s, (left.get(s) || 0) - 1);
  return [...left].filter(([, n]) => n > 0).map(([s]) => s);
}

export class MoveInput {
  // moves: [{steps: [...], any_order: bool, label: string|null}] (as the server sends them)
  constructor(moves, { autoComplete = true } = {}) {
    this.moves = moves.map((m) => Array.isArray(m)
      ? { steps: m, any_order: false, label: null }
      : { steps: m.steps, any_order: !!m.any_order, label: m.label ?? null });
    this.autoComplete = autoComplete;
    this.clicked = [];
    this.firstSteps = this.nextOf(this.moves.map((_, i) => i), []);
    this.update();
  }

  filter(clicked) {
    const out = [];
    this.moves.forEach((m, i) => { if (matches(m.steps, m.any_order, clicked)) out.push(i); });
    return out;
  }

  nextOf(indices, clicked) {
    const out = new Set();
    for (const i of indices) {
      const m = this.moves[i];
      for (const s of remaining(m.steps, m.any_order, clicked)) out.add(s);
    }
    return out;
  }

  completeOf(indices, clicked) {
    for (const i of indices) if (this.moves[i].steps.length === clicked.length) return i;
    return null;
  }

  update() {
    this.candidates = this.filter(this.clicked);
    this.nextSteps = this.nextOf(this.candidates, this.clicked);
    this.complete = this.clicked.length ? this.completeOf(this.candidates, this.clicked) : null;
  }

  // The clicks form a complete move, and another move extends them.
  get needsConfirm() {
    return this.complete !== null && this.candidates.length > 1;
  }

  // Whether the clicks so far may continue in any order (every candidate is any_order).
  get anyOrder() {
    return this.candidates.length > 0 && this.candidates.every((i) => this.moves[i].any_order);
  }

  // The move these clicks decide on their own (no confirmation), else null.
  decided(clicked) {
    if (!clicked.length) return null;
    const cands = this.filter(clicked);
    if (cands.length === 1 && (this.autoComplete || this.moves[cands[0]].steps.length === clicked.length)) {
      return cands[0];
    }
    return null;
  }

  isClickable(step) {
    return this.plan(step).kind !== ILLEGAL;
  }

  // What a click on step would do: {kind, after (the clicks after it), move (played, or null)}.
  plan(step) {
    const clicked = this.clicked;
    const last = clicked.length ? clicked[clicked.length - 1] : undefined;
    if (clicked.length && step === last) {
      if (this.complete !== null) return { kind: PLAY, after: [...clicked], move: this.complete };
      if (!this.nextSteps.has(step)) return { kind: BACK, after: clicked.slice(0, -1), move: null };
    }
    if (this.nextSteps.has(step)) {
      const after = [...clicked, step];
      const move = this.decided(after);
      if (move !== null) return { kind: PLAY, after, move };
      const complete = this.completeOf(this.filter(after), after);
      return { kind: complete !== null ? CONFIRM : SELECT, after, move: null };
    }
    if (clicked.includes(step) && this.anyOrder) {
      const after = [...clicked];
      after.splice(after.indexOf(step), 1);
      return { kind: BACK, after, move: null };
    }
    if (clicked.length && this.firstSteps.has(step)) {
      const after = [step];
      const move = this.decided(after);
      if (move !== null) return { kind: PLAY, after, move };
      return { kind: RESTART, after, move: null };
    }
    return { kind: ILLEGAL, after: [...clicked], move: null };
  }

  // Applies a click; returns {kind, move}.  A PLAY result ends this input: the page plays
  // moves[result.move] and makes a new MoveInput for the next position.
  click(step) {
    const { kind, after, move } = this.plan(step);
    if (kind === ILLEGAL) return { kind, move: null };
    this.clicked = after;
    this.update();
    return { kind, move: kind === PLAY ? move : null };
  }

  // The move to play when the player confirms (Done or Enter), or null.
  confirm() {
    return this.complete;
  }

  // Takes back the last step; false when there was none.
  back() {
    if (!this.clicked.length) return false;
    this.clicked = this.clicked.slice(0, -1);
    this.update();
    return true;
  }

  reset() {
    this.clicked = [];
    this.update();
  }

  // -- texts (nomv/moveinput.py's prompt and _why_not) -------------------------------------------

  // A line telling the player what to do next; `notations`: each move's text.
  prompt(t, notations, names = {}) {
    const name = (s) => names[s] || s;
    if (!this.moves.length) return "";
    if (this.needsConfirm) {
      return t("{move}: click {step} again, press Enter or Done to play it, or go on",
               { move: notations[this.complete], step: name(this.clicked[this.clicked.length - 1]) });
    }
    if (!this.clicked.length) return t("Click a highlighted place to start a move");
    return t("{steps}: {n} moves possible; click the next step",
             { steps: this.clicked.map(name).join(" "), n: this.candidates.length });
  }

  // Why a click on `step` does nothing.
  whyNot(step, t, names = {}) {
    const name = (s) => names[s] || s;
    if (!this.moves.length) return t("no move can be played now");
    if (this.clicked.length) {
      return t("{step} is not a legal next step after {steps}", { step: name(step), steps: this.clicked.map(name).join(" ") });
    }
    return t("{step} is not a legal next step", { step: name(step) });
  }
}
