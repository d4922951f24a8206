// The phone's own figures for rounds the server has not answered yet. It reads only data the
// server gave it (scorekeeper/rules/tables.py's game_table, through presenters.game_data: what
// each card counts at each stage, the bonuses' points, what the player who went out scores,
// which stage is the last, how the deal passes and how places are decided, and the game's state
// when the page was made), so it holds no rule of its own: it adds up, as
// scorekeeper/rules/replay.py's advance() does. tests/js/offline-replay.test.mjs checks it
// against the engine's own figures for many games (tests/js/cases/). js/offline.js imports it
// once a round waits to be sent or the signal is gone.

import { handScore } from "./hand-score.js";

// A copy of the server's state to work on: totals and stages completed per seat, the next round.
export function start(game) {
  var s = game.state;
  return {
    totals: s.totals.slice(),
    completed: s.completed.slice(),
    next: s.next ? JSON.parse(JSON.stringify(s.next)) : null
  };
}

// A round's score for one player at their stage (hand-score.js adds it up, as the round screen
// does): what the player who went out scores, or the cards' values (or the points counted by
// hand; neither is 0), plus the bonuses they earned ({name: [keys]}).
function penalty(game, round, name, stage) {
  var holds = round.hands && Object.prototype.hasOwnProperty.call(round.hands, name);
  var counted = round.points && round.points[name];
  var added = handScore(game, stage.values, {
    out: name === round.went_out, bonuses: (round.bonuses && round.bonuses[name]) || [],
    points: holds ? null : (counted ? Number(counted) : 0), cards: holds ? round.hands[name] : [] });
  if (added.missing && added.missing.bonus !== undefined) { throw new Error('"' + added.missing.bonus + '" is not a bonus'); }
  if (added.missing) { throw new Error('"' + added.missing.card + '" is not a card'); }
  return added.score;
}

function dealerFor(game, number, wentOut) {
  if (game.dealer === "went_out") { return wentOut; }
  var players = game.players, first = players.indexOf(game.first_dealer);
  return players[(first + number - 1) % players.length];
}

// The stage a seat plays with `completed` stages behind it on a ladder: the next one, or the
// last until the game ends.
function climbing(game, completed) { return game.stages[Math.min(completed, game.stages.length - 1)]; }

// The state after one more round: {went_out, hands: {name: [ranks]}, points: {name: n},
// achieved: [names], bonuses: {name: [keys]}}. The round is not checked here: the round form already refuses what the
// server would, and the server's answer replaces these figures once it is sent.
export function advance(game, state, round) {
  if (!state.next) { throw new Error("the game has ended; no further round can be recorded"); }
  var players = game.players, ladder = game.ladder;
  var stages = state.next.stages.map(function (number) { return game.stages[number - 1]; });
  var achieved = ladder ? (round.achieved || []).concat([round.went_out]) : [];
  var penalties = players.map(function (name, seat) { return penalty(game, round, name, stages[seat]); });
  var totals = players.map(function (name, seat) { return state.totals[seat] + penalties[seat]; });
  // The game ends after its last deal, or (a ladder) once someone makes the last stage.
  var reachedEnd = ladder ? players.some(function (name, seat) { return stages[seat].last && achieved.indexOf(name) >= 0; })
    : stages[0].last;
  var completed = players.map(function (name, seat) {
    return ladder && achieved.indexOf(name) >= 0 ? state.completed[seat] + 1 : state.completed[seat];
  });
  var number = state.next.number;
  return { totals: totals, completed: completed, round: number,
           next: reachedEnd ? null : nextRound(game, number + 1, dealerFor(game, number + 1, round.went_out), completed),
           penalties: penalties };
}

// The round after: who deals and plays first, each seat's contract (its own stage on a
// ladder, the deal's stage otherwise), the cards dealt, and what would end the game.
export function nextRound(game, number, dealer, completed) {
  var players = game.players, ladder = game.ladder;
  var stages = completed.map(function (c) { return ladder ? climbing(game, c) : game.stages[number - 1]; });
  return {
    number: number, dealer: dealer,
    first_player: players[(players.indexOf(dealer) + 1) % players.length],
    stages: stages.map(function (s) { return s.number; }),
    cards_dealt: Math.max.apply(null, stages.map(function (s) { return s.cards_dealt; })),
    is_last: !ladder && stages[0].last,
    finishers: ladder ? players.filter(function (name, seat) { return stages[seat].last; }) : []
  };
}

// The stage a player is on in `state` (a ladder: the one they play next, or the last once the
// game is over), by number.
export function stageOf(game, state, seat) { return climbing(game, state.completed[seat]).number; }

// The state after the rounds in order, from the server's state the page was made with.
export function replay(game, rounds) {
  return rounds.reduce(function (state, round) { return advance(game, state, round); }, start(game));
}

// Each seat's place, as the server ranks the board (scorekeeper/rules/replay.py, Position.ranks):
// by the figures the game's data names in order (places_by: "completed", the most first, and
// "total", the lowest first); a tie shares its place (1, 1, 3), as on the server's board.
export function places(game, state) {
  var keys = game.players.map(function (name, seat) {
    return game.places_by.map(function (by) { return by === "completed" ? -(state.completed[seat] || 0) : state.totals[seat]; });
  });
  function ahead(a, b) {
    for (var i = 0; i < a.length; i++) { if (a[i] !== b[i]) { return a[i] < b[i]; } }
    return false;
  }
  return keys.map(function (key) { return 1 + keys.filter(function (other) { return ahead(other, key); }).length; });
}
