// The rules, worked out on the phone for rounds the server has not answered yet. It reads only
// data the server gave it (presenters.game_data: the rule set's card
// values, stages, progression, last stage and dealer rule, and the game's state when the page was
// made), so it holds no rule set of its own. It mirrors scorekeeper/rules/replay.py's advance();
// tests/browser/test_offline_replay.py checks the two agree over many games. js/offline.js imports it once a round waits to be
// sent or the signal is gone.

// A copy of the server's state to work on: totals and levels per seat, the next round.
export function start(game) {
  var s = game.state;
  return {
    totals: s.totals.slice(),
    completed: s.completed.slice(),
    next: s.next ? JSON.parse(JSON.stringify(s.next)) : null
  };
}

// A round's score for one player: the cards' values (or the points counted by hand; nothing
// for the player who went out), plus the bonuses they earned ({name: [keys]}).
function penalty(game, round, name) {
  var earned = (round.bonuses && round.bonuses[name]) || [];
  return earned.reduce(function (sum, key) {
    var points = (game.bonuses || {})[key];
    if (points === undefined) { throw new Error('"' + key + '" is not a bonus'); }
    return sum + points;
  }, cardPoints(game, round, name));
}

function cardPoints(game, round, name) {
  if (name === round.went_out) { return 0; }
  if (round.hands && Object.prototype.hasOwnProperty.call(round.hands, name)) {
    return round.hands[name].reduce(function (sum, rank) {
      var value = game.values[String(rank).toUpperCase()];
      if (value === undefined) { throw new Error('"' + rank + '" is not a card'); }
      return sum + value;
    }, 0);
  }
  var points = round.points && round.points[name];
  return points ? Number(points) : 0;
}

function dealerFor(game, number, wentOut) {
  if (game.dealer_rule === "winner") { return wentOut; }
  var players = game.players, first = players.indexOf(game.first_dealer);
  return players[(first + number - 1) % players.length];
}

// The state after one more round: {went_out, hands: {name: [ranks]}, points: {name: n},
// achieved: [names], bonuses: {name: [keys]}}. The round is not checked here: the round form already refuses what the
// server would, and the server's answer replaces these figures once it is sent.
export function advance(game, state, round) {
  if (!state.next) { throw new Error("the game has ended; no further round can be recorded"); }
  var players = game.players, ladder = game.progression === "ladder";
  var achieved = ladder ? (round.achieved || []).concat([round.went_out]) : [];
  var reachedEnd = false;
  var totals = players.map(function (name, seat) { return state.totals[seat] + penalty(game, round, name); });
  var completed = players.map(function (name, seat) {
    var c = state.completed[seat];
    if (ladder && achieved.indexOf(name) >= 0) {
      c += 1;
      reachedEnd = reachedEnd || c >= game.last_stage;
    }
    return c;
  });
  var number = state.next.number;
  if (!ladder) { reachedEnd = number >= game.last_stage; }
  return { totals: totals, completed: completed, round: number,
           next: reachedEnd ? null : nextRound(game, number + 1, dealerFor(game, number + 1, round.went_out), completed),
           penalties: players.map(function (name) { return penalty(game, round, name); }) };
}

// The round after: who deals and plays first, each seat's contract (its own level on a
// ladder, the deal's contract otherwise), the cards dealt, and what would end the game.
export function nextRound(game, number, dealer, completed) {
  var players = game.players, ladder = game.progression === "ladder", last = game.last_stage;
  var stages = completed.map(function (c) {
    return game.stages[(ladder ? Math.min(c + 1, last) : number) - 1];
  });
  return {
    number: number, dealer: dealer,
    first_player: players[(players.indexOf(dealer) + 1) % players.length],
    stages: stages.map(function (s) { return s.number; }),
    cards_dealt: Math.max.apply(null, stages.map(function (s) { return s.cards_dealt; })),
    is_last: !ladder && number >= last,
    finishers: ladder ? players.filter(function (name, seat) { return completed[seat] + 1 >= last; }) : []
  };
}

// The state after the rounds in order, from the server's state the page was made with.
export function replay(game, rounds) {
  return rounds.reduce(function (state, round) { return advance(game, state, round); }, start(game));
}

// Each seat's place, as the server ranks the board (scorekeeper/rules/replay.py, Position.ranks):
// lowest total first or, where only who completes the last stage may win, the most stages
// completed first, then the total; a tie shares its place (1, 1, 3), as on the server's board.
export function places(game, state) {
  var keys = game.players.map(function (name, seat) {
    var total = state.totals[seat];
    return game.winner === "lowest-finisher" ? [-(state.completed[seat] || 0), total] : [total];
  });
  function ahead(a, b) {
    for (var i = 0; i < a.length; i++) { if (a[i] !== b[i]) { return a[i] < b[i]; } }
    return false;
  }
  return keys.map(function (key) { return 1 + keys.filter(function (other) { return ahead(other, key); }).length; });
}
