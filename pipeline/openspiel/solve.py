"""Exact solving of a small game: its tree walked once into arrays, CFR+ and exact best responses on them.

A game written in Python is slow to walk for every iteration of CFR (each state a Python object, copied by
deep copy), and OpenSpiel's C++ solvers, run on such a game or on its tree read back as an EFG game, walk
the tree state by state (seconds an iteration for the reduced Trut's 710,000 histories). So the tree is walked
once (``export_tree``) into arrays (``GameTree``: each history's parent, the action or chance that leads to it,
its player and information state, its returns), on which CFR+ and best responses are a few vector operations
per depth of the tree (NumPy). While it walks the tree the export asks each bot for its ``probabilities`` at
every decision, so the bots become tabular policies (a bot that gives two histories of one information state
different chances is refused). The export also writes the tree in OpenSpiel's EFG text format, so OpenSpiel's
own ``pyspiel.exploitability`` checks the arrays' figures (``tests/test_openspiel_solve.py``, and the end point
of ``truc equilibrium``).

Two-player zero-sum games only. The histories of one information state are at one depth (the record a seat
sees has an entry per move and per card dealt), which the best response relies on; the export checks it.

Exploitability here is OpenSpiel's: the mean over the two players of what a best response to the other's
policy gains over the policy's value (NashConv / 2); for a hand played by one bot in both seats, the points a
best response wins per hand against it, averaged over the two seats.

The EFG game numbers its actions by the order in which their names first appear in the file and sorts each
node's actions by number; so the file opens with a branch of chance probability 0 holding one decision that
lists every action of the game in its own order, which makes the EFG game's action numbers the game's own.
Its information state strings are ``"{player}-{player}-{number}-"`` (``efg_key``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

NUMBERING = 1
"""The information state number of the numbering branch's decision (player 0's, never reached: EFG numbers
each player's information states from 1 without a gap, so player 0's own start at 2)."""

StatePolicy = Callable[[Any], Mapping[int, float]]
"""A bot as the export sees it: a state -> the chance of each of its legal actions."""

StateAbstraction = Callable[[Any], tuple[str, Mapping[int, str]]]
"""An abstraction as the export sees it: a state -> the key the seat to act sees, and the abstract choice each
legal action stands for (an action missing from it is not one the abstraction can choose)."""


@dataclass
class ExportedTree:
    """What ``export_tree`` wrote and counted: the EFG file, the arrays, the bots' tables."""

    path: Path
    histories: int = 0  # every node of the tree: chance, decision and terminal
    terminals: int = 0
    decisions: int = 0
    chance_nodes: int = 0
    information_states: list[dict[int, str]] = field(default_factory=list)  # per player: EFG number -> state
    policies: dict[str, dict[str, list[tuple[int, float]]]] = field(default_factory=dict)  # bot -> EFG table
    arrays: GameTree | None = None
    bot_strategies: dict[str, np.ndarray] = field(default_factory=dict)  # bot -> chance per action slot
    groupings: dict[str, Grouping] = field(default_factory=dict)  # abstraction -> its keys over the tree
    actions: int = 0  # the game's distinct actions
    seconds: float = 0.0

    def infostate_counts(self) -> list[int]:
        return [len(states) for states in self.information_states]

    def efg_game(self) -> Any:
        """The exported tree as OpenSpiel's C++ EFG game."""
        return pyspiel.load_efg_game(self.path.read_text("ascii"))

    def efg_policy(self, strategy: np.ndarray) -> Any:
        """A strategy of the arrays (a chance per action slot) as a tabular policy of the EFG game."""
        return tabular(_efg_table(self, strategy))


def efg_key(player: int, number: int) -> str:
    """The EFG game's information state string of ``player``'s information state ``number``."""
    return f"{player}-{player}-{number}-"


def _quoted(text: str) -> str:
    if '"' in text or "\n" in text:
        raise ValueError(f"a name in an EFG file cannot hold quotes or new lines: {text!r}")
    return f'"{text}"'


def export_tree(
    game: Any,
    path: Path,
    bots: Mapping[str, StatePolicy] | None = None,
    root: Any = None,
    progress: Callable[[int], None] | None = None,
    abstractions: Mapping[str, StateAbstraction] | None = None,
) -> ExportedTree:
    """Walk every history of ``game`` (from ``root``, by default its initial state) into arrays and into the EFG
    file ``path``; ask each bot of ``bots`` its chances at every decision (see the module docstring), and each
    abstraction of ``abstractions`` its key and choices (``Grouping``; one information state must always get
    the same ones)."""
    started = time.perf_counter()
    players = game.num_players()
    if players != 2:
        raise ValueError(f"exact solving takes two-player games, not {players} players")
    tree = ExportedTree(path, information_states=[{} for _ in range(players)], actions=game.num_distinct_actions())
    numbers: list[dict[str, int]] = [{} for _ in range(players)]
    bot_chances: dict[str, list[float]] = {name: [] for name in (bots or {})}
    seen: dict[str, tuple[list[tuple[int, str]], list[str]]] = {name: ([], []) for name in (abstractions or {})}
    outcomes: dict[tuple[float, ...], int] = {}
    start = root if root is not None else game.new_initial_state()
    everything = list(range(game.num_distinct_actions()))
    build = _Builder()
    with path.open("w", encoding="ascii") as out:
        out.write(f'EFG 2 R "{game}" {{ {" ".join(_quoted(f"p{p}") for p in range(players))} }}\n')
        out.write('c "" 1 "" { "0" 0 "1" 1 } 0\n')  # the branch of probability 0 that numbers every action
        names = " ".join(_quoted(_action_name(game, a)) for a in everything)
        out.write(f'p "" 1 {NUMBERING} "" {{ {names} }} 0\n')
        for _ in everything:
            out.write(f't "" 1 "" {{ {", ".join("0" for _ in range(players))} }}\n')
        chance_number = 1
        for state, parent, position, chance in _preorder(start):
            node = tree.histories
            tree.histories += 1
            if progress is not None and tree.histories % 10_000 == 0:
                progress(tree.histories)
            if state.is_terminal():
                tree.terminals += 1
                payoff = tuple(state.returns())
                if abs(sum(payoff)) > 1e-9:
                    raise ValueError(f"exact solving takes zero-sum games: returns {payoff}")
                number = outcomes.setdefault(payoff, len(outcomes) + 2)  # outcome 1: the numbering branch
                out.write(f't "" {number} "" {{ {", ".join(repr(float(v)) for v in payoff)} }}\n')
                build.node(node, parent, position, chance, TERMINAL, -1, -1, payoff[0], len(state.history()))
            elif state.is_chance_node():
                tree.chance_nodes += 1
                chance_number += 1
                branches = " ".join(f'"{o}" {p!r}' for o, p in state.chance_outcomes())
                out.write(f'c "" {chance_number} "" {{ {branches} }} 0\n')
                build.node(node, parent, position, chance, CHANCE, -1, -1, 0.0, len(state.history()))
            else:
                tree.decisions += 1
                player = state.current_player()
                info = state.information_state_string(player)
                first = NUMBERING + 1 if player == 0 else 1
                number = numbers[player].setdefault(info, len(numbers[player]) + first)
                tree.information_states[player][number] = info
                legal = state.legal_actions()
                names = " ".join(_quoted(_action_name(game, a)) for a in legal)
                out.write(f'p "" {player + 1} {number} "" {{ {names} }} 0\n')
                known = build.infoset(player, number, legal)
                build.node(node, parent, position, chance, DECISION, player, known, 0.0, len(state.history()))
                for name, bot in (bots or {}).items():
                    given = bot(state)
                    if any(a not in legal for a in given) or abs(sum(given.values()) - 1) > 1e-9:
                        raise ValueError(f"bot {name} gives {given} where the legal actions are {legal}")
                    chances = [float(given.get(a, 0.0)) for a in legal]  # OpenSpiel wants every legal one
                    slots = bot_chances[name]
                    offset = build.offsets[known]
                    if offset == len(slots):
                        slots.extend(chances)
                    elif slots[offset : offset + len(legal)] != chances:
                        raise ValueError(f"bot {name} gives two histories of one information state different chances")
                for name, abstraction in (abstractions or {}).items():
                    key, choices = abstraction(state)
                    keys, choice_names = seen[name]
                    sees = (player, key), [choices.get(a, "") for a in legal]
                    if known == len(keys):
                        keys.append(sees[0])
                        choice_names.extend(sees[1])
                    elif (keys[known], choice_names[build.offsets[known] : build.offsets[known] + len(legal)]) != sees:
                        raise ValueError(f"abstraction {name} sees two histories of one information state differently")
    tree.arrays = build.tree()
    tree.groupings = {name: Grouping.of(tree.arrays, *seen[name]) for name in seen}
    tree.bot_strategies = {name: np.array(chances) for name, chances in bot_chances.items()}
    tree.policies = {name: _efg_table(tree, strategy) for name, strategy in tree.bot_strategies.items()}
    tree.seconds = time.perf_counter() - started
    return tree


def _efg_table(tree: ExportedTree, strategy: np.ndarray) -> dict[str, list[tuple[int, float]]]:
    arrays = tree.arrays
    assert arrays is not None
    table: dict[str, list[tuple[int, float]]] = {}
    for info, (player, number) in enumerate(arrays.efg_numbers):
        start, size = int(arrays.offset[info]), int(arrays.size[info])
        actions = arrays.slot_action[start : start + size]
        chances = strategy[start : start + size]
        table[efg_key(player, number)] = [(int(a), float(p)) for a, p in zip(actions, chances, strict=True)]
    everything = range(tree.actions)
    table[efg_key(0, NUMBERING)] = [(a, 1.0 / len(everything)) for a in everything]
    return table


TERMINAL, CHANCE, DECISION = 0, 1, 2
"""The kinds of a history in ``GameTree``."""


class _Builder:
    """The arrays of ``GameTree``, filled history by history in preorder."""

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.position: list[int] = []  # the child's place among its parent's actions or chance outcomes
        self.chance: list[float] = []  # the chance of the outcome that leads to it (1 after a decision)
        self.kind: list[int] = []
        self.player: list[int] = []
        self.info: list[int] = []
        self.utility: list[float] = []  # player 0's return at a terminal history
        self.depth: list[int] = []
        self.numbers: dict[tuple[int, int], int] = {}
        self.efg_numbers: list[tuple[int, int]] = []
        self.offsets: list[int] = []
        self.sizes: list[int] = []
        self.slot_action: list[int] = []

    def infoset(self, player: int, number: int, legal: list[int]) -> int:
        known = self.numbers.get((player, number))
        if known is None:
            known = self.numbers[(player, number)] = len(self.efg_numbers)
            self.efg_numbers.append((player, number))
            self.offsets.append(len(self.slot_action))
            self.sizes.append(len(legal))
            self.slot_action.extend(legal)
        return known

    def node(
        self, node: int, parent: int, position: int, chance: float, kind: int, player: int, info: int, u: float, d: int
    ) -> None:
        self.parent.append(parent)
        self.position.append(position)
        self.chance.append(chance)
        self.kind.append(kind)
        self.player.append(player)
        self.info.append(info)
        self.utility.append(u)
        self.depth.append(d)

    def tree(self) -> GameTree:
        return GameTree(
            parent=np.array(self.parent, dtype=np.int64),
            position=np.array(self.position, dtype=np.int64),
            chance=np.array(self.chance),
            kind=np.array(self.kind, dtype=np.int8),
            player=np.array(self.player, dtype=np.int8),
            info=np.array(self.info, dtype=np.int64),
            utility=np.array(self.utility),
            depth=np.array(self.depth, dtype=np.int64),
            offset=np.array(self.offsets, dtype=np.int64),
            size=np.array(self.sizes, dtype=np.int64),
            slot_action=np.array(self.slot_action, dtype=np.int64),
            efg_numbers=self.efg_numbers,
        )


def _action_name(game: Any, action: int) -> str:
    table: Any = getattr(game, "table", None)
    return table.text(action) if table is not None else str(action)


def _preorder(root: Any) -> Iterator[tuple[Any, int, int, float]]:
    """Every history under ``root``, each before its children, children in action order: (state, its parent's
    index in this order, its place among the parent's actions, the chance of the outcome leading to it)."""
    stack: list[tuple[Any, int, int, float]] = [(root, -1, 0, 1.0)]
    index = 0
    while stack:
        state, parent, position, chance = stack.pop()
        yield state, parent, position, chance
        me = index
        index += 1
        if state.is_terminal():
            continue
        if state.is_chance_node():
            moves = state.chance_outcomes()
        else:
            moves = [(action, 1.0) for action in state.legal_actions()]
        children = []
        for place, (action, p) in enumerate(moves):
            child = state.clone()
            child.apply_action(action)
            children.append((child, me, place, p))
        stack.extend(reversed(children))


def tabular(table: Mapping[str, list[tuple[int, float]]]) -> Any:
    """A bot's table as OpenSpiel's C++ tabular policy."""
    return pyspiel.TabularPolicy(dict(table))


def exploitability(efg_game: Any, policy: Any) -> float:
    """OpenSpiel's exploitability of ``policy`` on the exported game (see the module docstring)."""
    return float(pyspiel.exploitability(efg_game, policy))


@dataclass
class _Level:
    """The histories at one depth and the edges into them, split by who chose the edge."""

    nodes: np.ndarray
    parents: np.ndarray  # the distinct parents, and each node's place among them
    inverse: np.ndarray
    by: list[np.ndarray]  # per player: the nodes whose parent is that player's decision
    chanced: np.ndarray  # the nodes whose parent is a chance history


@dataclass
class GameTree:
    """A two-player zero-sum game's tree as arrays, histories in preorder (the root first); every information
    state's actions are consecutive action slots (``offset``, ``size``), a strategy a chance per slot."""

    parent: np.ndarray
    position: np.ndarray
    chance: np.ndarray
    kind: np.ndarray
    player: np.ndarray
    info: np.ndarray
    utility: np.ndarray
    depth: np.ndarray
    offset: np.ndarray
    size: np.ndarray
    slot_action: np.ndarray
    efg_numbers: list[tuple[int, int]]

    def __post_init__(self) -> None:
        n = len(self.parent)
        self.slots = len(self.slot_action)
        self.slot_info = np.repeat(np.arange(len(self.offset)), self.size)
        self.info_player = np.zeros(len(self.offset), dtype=np.int8)
        decisions = np.nonzero(self.kind == DECISION)[0]
        self.info_player[self.info[decisions]] = self.player[decisions]
        depth_of_info = np.full(len(self.offset), -1, dtype=np.int64)
        depth_of_info[self.info[decisions]] = self.depth[decisions]
        if np.any(depth_of_info[self.info[decisions]] != self.depth[decisions]):
            raise ValueError("the histories of an information state are at different depths")
        self.representative = np.zeros(len(self.offset), dtype=np.int64)  # one history of each state
        self.representative[self.info[decisions][::-1]] = decisions[::-1]
        self.edge_slot = np.full(n, -1, dtype=np.int64)  # the slot of the action leading to a history
        children = np.nonzero(self.parent >= 0)[0]
        after_decision = children[self.kind[self.parent[children]] == DECISION]
        self.edge_slot[after_decision] = (
            self.offset[self.info[self.parent[after_decision]]] + self.position[after_decision]
        )
        relative = self.depth - self.depth[0]
        self.levels: list[_Level] = []
        for d in range(1, int(relative.max()) + 1 if n > 1 else 1):
            nodes = np.nonzero(relative == d)[0]
            parents, inverse = np.unique(self.parent[nodes], return_inverse=True)
            owner = self.kind[self.parent[nodes]]
            chooser = self.player[self.parent[nodes]]
            by = [nodes[(owner == DECISION) & (chooser == p)] for p in (0, 1)]
            self.levels.append(_Level(nodes, parents, inverse, by, nodes[owner == CHANCE]))

    def uniform(self) -> np.ndarray:
        return 1.0 / self.size[self.slot_info]

    def normalised(self, weights: np.ndarray) -> np.ndarray:
        """Weights per slot made a strategy: each state's in proportion, uniform where they are all 0."""
        if self.slots == 0:
            return weights
        totals = np.add.reduceat(weights, self.offset)[self.slot_info]
        return np.where(totals > 0, weights / np.where(totals > 0, totals, 1.0), self.uniform())

    def reach(self, strategy: np.ndarray) -> np.ndarray:
        """Per history, each player's own chance of playing to it and chance's (rows 0, 1, 2)."""
        reach = np.ones((3, len(self.parent)))
        for level in self.levels:
            reach[:, level.nodes] = reach[:, self.parent[level.nodes]]
            for p in (0, 1):
                reach[p, level.by[p]] *= strategy[self.edge_slot[level.by[p]]]
            reach[2, level.chanced] *= self.chance[level.chanced]
        return reach

    def _weights(self, strategy: np.ndarray, level: _Level) -> np.ndarray:
        weights = self.chance[level.nodes].copy()
        decided = self.edge_slot[level.nodes] >= 0
        weights[decided] = strategy[self.edge_slot[level.nodes[decided]]]
        return weights

    def values(self, strategy: np.ndarray) -> np.ndarray:
        """Player 0's expected return at every history when both play ``strategy``."""
        value = self.utility.copy()
        for level in reversed(self.levels):
            sums = np.bincount(level.inverse, self._weights(strategy, level) * value[level.nodes], len(level.parents))
            value[level.parents] = sums
        return value

    def best_response(self, strategy: np.ndarray, player: int, grouping: Grouping | None = None) -> float:
        """What ``player`` wins (its own return) with a best response to the other's ``strategy``; with a
        ``grouping``, the best response that sees only the abstraction's keys (``abstract_response``)."""
        return self.abstract_response(strategy, player, grouping)[0]

    def abstract_response(
        self, strategy: np.ndarray, player: int, grouping: Grouping | None = None, passes: int = 10
    ) -> tuple[float, np.ndarray]:
        """A pure best response of ``player`` to the other's ``strategy`` by backward induction, depth by
        depth, and what it wins; the response as a 0/1 chance per slot (the other player's slots 0).

        Without a ``grouping`` it chooses at each information state: the exact best response. With one, it
        chooses once per key of the grouping (an abstraction's key, at one depth), the choice of highest
        counterfactual value summed over the key's histories, played at each of them as the action the
        abstraction stands for: a strategy of the real game that sees only the keys, so it never wins more than
        the exact best response. Where the abstraction has perfect recall (``Grouping.recall_breaks``: none)
        this is the best response within the abstraction. Where it has not, a key's histories may be reached
        by different choices of the player's own, and backward induction alone weighs them as if all were
        reached: so further passes (up to ``passes`` in all, while what it wins grows) weigh each history also
        by the player's own reach under the last pass's response (a history it does not reach by 1e-6, so that
        its choice still follows its values), and the best pass is kept. That is still a heuristic, its
        winnings a lower bound on the best such strategy's. What it wins is the exact value of the pure
        strategy returned, whatever the recall."""
        won, pure = self._backward(strategy, player, grouping, None)
        if grouping is None:
            return won, pure
        for _ in range(passes - 1):
            played = np.where(self.info_player[self.slot_info] == player, pure, strategy)
            again, response = self._backward(strategy, player, grouping, self.reach(played)[player] + 1e-6)
            if again <= won + 1e-12:
                break
            won, pure = again, response
        return won, pure

    def _backward(
        self, strategy: np.ndarray, player: int, grouping: Grouping | None, own: np.ndarray | None
    ) -> tuple[float, np.ndarray]:
        """One pass of ``abstract_response``; ``own``: the weight of each history for the player's choices
        (None: 1 everywhere)."""
        reach = self.reach(strategy)
        others = reach[1 - player] * reach[2]
        if own is not None:
            others = others * own
        sign = 1.0 if player == 0 else -1.0
        value = sign * self.utility
        pure = np.zeros(self.slots)
        for level in reversed(self.levels):
            mine = level.by[player]
            slots = self.edge_slot[mine]
            q = np.bincount(slots, others[self.parent[mine]] * value[mine], self.slots)
            if grouping is None:
                best = np.full(len(self.offset), -np.inf)
                np.maximum.at(best, self.slot_info[slots], q[slots])
                top = np.zeros(self.slots, dtype=bool)
                top[slots] = q[slots] >= best[self.slot_info[slots]]
                counted = np.cumsum(top)
                before = counted[self.offset] - top[self.offset]
                chosen = top & (counted - before[self.slot_info] == 1)  # the first best action of each state
            else:
                chosen = grouping.choose(np.unique(slots), q)
            pure[slots] = chosen[slots]
            weights = self._weights(strategy, level)
            weights[np.isin(level.nodes, mine)] = chosen[self.edge_slot[level.nodes[np.isin(level.nodes, mine)]]]
            value[level.parents] = np.bincount(level.inverse, weights * value[level.nodes], len(level.parents))
        return float(value[0]), pure

    def exploitability(self, strategy: np.ndarray, grouping: Grouping | None = None) -> float:
        """OpenSpiel's exploitability: NashConv / 2, the mean gain of the two best responses; with a
        ``grouping``, of the two best responses that see only its keys (``abstract_response``)."""
        return (self.best_response(strategy, 0, grouping) + self.best_response(strategy, 1, grouping)) / 2

    def cfr_plus(
        self, iterations: int, checkpoints: int = 20, progress: Callable[[int, float], None] | None = None
    ) -> tuple[list[tuple[int, float]], np.ndarray]:
        """CFR+ (Tammelin 2014: regrets floored at 0, alternating updates, the average weighted by the iteration)
        for ``iterations`` iterations; the exploitability of its average strategy at about ``checkpoints``
        iterations spread over a log scale (and the last), and the final average strategy."""
        marks = {max(1, round(iterations ** (k / checkpoints))) for k in range(checkpoints + 1)} | {iterations}
        regrets = np.zeros(self.slots)
        totals = np.zeros(self.slots)
        curve: list[tuple[int, float]] = []
        for t in range(1, iterations + 1):
            for p in (0, 1):
                strategy = self.normalised(regrets)
                reach = self.reach(strategy)
                value = self.values(strategy) * (1.0 if p == 0 else -1.0)
                mine = self.info_player[self.slot_info] == p
                own = reach[p][self.representative[self.slot_info]]
                totals += np.where(mine, t * own * strategy, 0.0)
                others = reach[1 - p] * reach[2]
                gains = np.zeros(self.slots)
                for level in self.levels:
                    nodes = level.by[p]
                    parents = self.parent[nodes]
                    gains += np.bincount(
                        self.edge_slot[nodes], others[parents] * (value[nodes] - value[parents]), self.slots
                    )
                regrets = np.maximum(regrets + gains, 0.0)
            if t in marks:
                curve.append((t, self.exploitability(self.normalised(totals))))
                if progress is not None:
                    progress(*curve[-1])
        return curve, self.normalised(totals)


@dataclass
class Grouping:
    """A tree's information states grouped by an abstraction's keys (``export_tree``'s ``abstractions``).

    A *key* is a player's abstract key at one depth of the tree (a key met at several depths is one key per
    depth: ``split_keys`` counts the extra ones); a *group* is a key with one of its abstract choices. Each slot belongs
    to the group of the choice its action stands for, or to none (-1: an action the abstraction does not
    choose, as a second card of one power)."""

    slot_group: np.ndarray
    group_key: np.ndarray
    info_key: np.ndarray  # per information state: its key
    key_player: np.ndarray
    split_keys: int  # how many more keys than the abstraction's own (one met at n depths counts n - 1)

    @classmethod
    def of(cls, tree: GameTree, keys: list[tuple[int, str]], names: list[str]) -> Grouping:
        """The grouping of ``tree`` from each information state's (player, key) and each slot's choice name."""
        depth = tree.depth[tree.representative]
        key_ids: dict[tuple[int, str, int], int] = {}
        info_key = np.array(
            [key_ids.setdefault((p, k, int(d)), len(key_ids)) for (p, k), d in zip(keys, depth, strict=True)],
            dtype=np.int64,
        )
        split = len({(p, k) for p, k, _ in key_ids})
        group_ids: dict[tuple[int, str], int] = {}
        group_key: list[int] = []
        slot_group = np.full(tree.slots, -1, dtype=np.int64)
        for slot, name in enumerate(names):
            if name:
                key = int(info_key[tree.slot_info[slot]])
                group = group_ids.setdefault((key, name), len(group_ids))
                if group == len(group_key):
                    group_key.append(key)
                slot_group[slot] = group
        key_player = np.zeros(len(key_ids), dtype=np.int8)
        for (p, _, _), k in key_ids.items():
            key_player[k] = p
        counts = np.bincount(info_key[tree.slot_info[slot_group >= 0]], minlength=len(key_ids))
        if np.any(counts == 0):
            raise ValueError("an abstraction gives an information state no choice it can take")
        return cls(slot_group, np.array(group_key, dtype=np.int64), info_key, key_player, len(key_ids) - split)

    @property
    def keys(self) -> int:
        return len(self.key_player)

    def choose(self, slots: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Given the counterfactual value ``q`` of each slot of ``slots`` (one depth, one player), the slots of
        each key's best choice (its first, by group number, of highest value summed over the key's slots)."""
        groups = self.slot_group[slots]
        valid = groups >= 0
        value = np.bincount(groups[valid], q[slots[valid]], len(self.group_key))
        present = np.unique(groups[valid])
        best = np.full(self.keys, -np.inf)
        np.maximum.at(best, self.group_key[present], value[present])
        winners = present[value[present] >= best[self.group_key[present]]]
        first = np.full(self.keys, len(self.group_key), dtype=np.int64)
        np.minimum.at(first, self.group_key[winners], winners)
        chosen = np.zeros(len(self.slot_group), dtype=bool)
        picked = slots[valid][first[self.group_key[groups[valid]]] == groups[valid]]
        chosen[picked] = True
        return chosen

    def recall_breaks(self, tree: GameTree, player: int) -> int:
        """How many of ``player``'s keys hold histories reached by different sequences of the player's own
        earlier choices (imperfect recall, where backward induction is not the best response within the
        abstraction): a key is counted when the histories of it that the abstraction can reach do not all
        follow the same last choice of the player (by induction, the same sequence of them)."""
        last = np.full(len(tree.parent), -1, dtype=np.int64)  # the last group ``player`` chose on the path
        reachable = np.ones(len(tree.parent), dtype=bool)  # by the abstraction's choices alone
        for level in tree.levels:
            last[level.nodes] = last[tree.parent[level.nodes]]
            reachable[level.nodes] = reachable[tree.parent[level.nodes]]
            mine = level.by[player]
            last[mine] = self.slot_group[tree.edge_slot[mine]]
            reachable[mine] &= last[mine] >= 0
        decisions = np.nonzero((tree.kind == DECISION) & (tree.player == player) & reachable)[0]
        pairs = np.unique(np.stack([self.info_key[tree.info[decisions]], last[decisions]]), axis=1)
        _, counts = np.unique(pairs[0], return_counts=True)
        return int(np.sum(counts > 1))
