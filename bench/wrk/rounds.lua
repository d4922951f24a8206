-- Record a round through the API, as the phone keeping score at a table does: every request
-- is the next round of a game, never a repeat (a repeated number answers 201 or 409
-- without storing anything). Run with as many threads as connections: each wrk thread then
-- has one connection and its own games, and sends round n+1 of a game only after round n
-- was answered. Every thread goes round the games it owns, one round of each in turn.
--
--   wrk -t4 -c4 -s rounds.lua URL -- GAMES_FILE THREADS
-- GAMES_FILE: one game a line, "id key name1 name2 name3 name4 [next]" (Balmoral): next is the
-- round the game is at (1 when left out), so that a run can go on where the last one stopped.
--
-- A game's next round number moves on when the server answers: wrk sometimes makes a
-- request and then, its connection not yet writable, makes another in its place without
-- sending the first; the game whose round that was gets the same round again next time.

local threads = {}
local games = {}
local counter = 0
local headers = {}

function setup(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
end

function init(args)
  local file, count = args[1], tonumber(args[2])
  local i = 0
  for line in io.lines(file) do
    if i % count == index then
      local fields = {}
      for word in line:gmatch("%S+") do table.insert(fields, word) end
      table.insert(games, { id = fields[1], key = fields[2], players = { fields[3], fields[4], fields[5], fields[6] },
                            next = tonumber(fields[7]) or 1 })
    end
    i = i + 1
  end
end

-- Round n: the players go out in turn; the three others hold five cards each
-- ("K Q 7 5 3": 35 points). After 24 such rounds nobody has made level 7 yet; round 25
-- ends the game, so a game takes at most 25 rounds.
local function body(number, players)
  local out = ((number - 1) % 4) + 1
  local hands = {}
  for seat = 1, 4 do
    if seat ~= out then table.insert(hands, string.format('"%s":"K Q 7 5 3"', players[seat])) end
  end
  return string.format('{"number":%d,"went_out":"%s","hands":{%s},"achieved":[]}',
    number, players[out], table.concat(hands, ","))
end

local sent = nil

function request()
  local game = games[(counter % #games) + 1]
  counter = counter + 1
  local number = game.next or 1
  if number > 25 then
    error("out of games: give this run more games (bench/run.py --round-games)")
  end
  sent = { game = game, number = number }
  return wrk.format("POST", "/api/games/" .. game.id .. "/rounds", {
    ["Authorization"] = "Bearer " .. game.key,
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json",
    ["Accept-Encoding"] = "gzip, deflate, br",
  }, body(number, game.players))
end
function response(status, headers, body)
  if sent == nil then return end
  local expected = status == 422 and tonumber(body:match("round (%d+) comes next"))
  sent.game.next = expected or sent.number + 1
  sent = nil
end

-- The figures, printed as report.lua prints them for every endpoint.
dofile(debug.getinfo(1, "S").source:match("^@?(.*/)") .. "report.lua")
