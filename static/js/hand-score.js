// One player's score for one hand: the one place the phone adds a hand up. The round screen's
// rows (keypad.js) and the rounds that wait to be sent (offline-replay.js) both score here, from
// the engine's table the page hands over (scorekeeper/rules/tables.py), so the two cannot count
// a hand differently. It holds no rule of its own, reads no page and does nothing at import.

// `hand`: {out, points, cards, bonuses}: whether the player went out; the points counted by
// hand (a number, or null where the cards count); the ranks of the cards left (["K", "JK"]);
// the keys of the bonuses earned. `values`: what each card counts at the seat's stage.
// `table`: what the player who went out scores and each bonus's points.
// The answer: {score}, or, where a bonus or card has no value in this game, {missing: {bonus}}
// or {missing: {card}} (its key or rank, as given) and no score, not a guess.
export function handScore(table, values, hand) {
  var extra = 0, earned = hand.bonuses || [];
  for (var b = 0; b < earned.length; b++) {
    var points = table.bonuses[earned[b]];
    if (points === undefined) { return { score: null, missing: { bonus: earned[b] } }; }
    extra += points;
  }
  if (hand.out) { return { score: table.went_out + extra, missing: null }; }
  if (hand.points !== null && hand.points !== undefined) { return { score: hand.points + extra, missing: null }; }
  var cards = hand.cards || [], sum = extra;
  for (var c = 0; c < cards.length; c++) {
    var value = cards[c] === null ? undefined : values[cards[c]];
    if (value === undefined) { return { score: null, missing: { card: cards[c] } }; }
    sum += value;
  }
  return { score: sum, missing: null };
}
