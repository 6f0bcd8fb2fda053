// A Pons-format front end for Christophe Steininger's Connect Four solver
// (github.com/ChristopheSteininger/c4, MIT licence), written for gametree's
// `cargo xtask bench connect4 --steininger PATH`. It is our code; the solver
// is not part of this repository.
//
// Input, one position a line: the columns played, digits 1-7 (Pascal Pons's
// notation; an empty line is the empty board, as for his solver), optionally
// followed by a space and anything else (his data files carry the expected
// score there). Output, one line per position:
// `moves score nodes`, the score in Pons's convention (for the side to move,
// +-(W*H + 2 - m) / 2 when the game ends on move m, 0 for a draw) and the
// nodes the solver counted for this position. One solver for the whole run:
// its table is kept from one position to the next. `--info` prints the table
// and thread settings the solver was compiled with, and nothing else.
//
// The table size and the thread count are compile-time constants of the
// solver (src/solver/settings.h), so each size is its own build:
// xtask/peers/build_steininger.sh C4_CHECKOUT OUT_DIR builds this driver
// against a checkout with NUM_THREADS = 1 and a 64 MiB and a 1 GiB table.

#include <iostream>
#include <string>

#include "solver/position.h"
#include "solver/settings.h"
#include "solver/solver.h"

// Pons's score of `score` (the solver's, for the side to move in `pos`).
static int pons_score(const Position &pos, int score) {
    if (score == 0) {
        return 0;
    }
    int last_move = pos.num_moves() + pos.moves_left(score);
    int magnitude = (BOARD_WIDTH * BOARD_HEIGHT + 2 - last_move) / 2;
    return score > 0 ? magnitude : -magnitude;
}

int main(int argc, char **argv) {
    if (argc > 1 && std::string(argv[1]) == "--info") {
        std::cout << "entries " << NUM_TABLE_ENTRIES << " bytes " << NUM_TABLE_ENTRIES * sizeof(Entry)
                  << " threads " << NUM_THREADS << std::endl;
        return 0;
    }
    Solver solver{};
    std::string line;
    while (std::getline(std::cin, line)) {
        std::string moves = line.substr(0, line.find_first_of(" \t\r"));
        Position pos{};
        for (char c : moves) {
            int col = c - '1';
            if (col < 0 || col >= BOARD_WIDTH || pos.is_game_over() || !pos.is_move_valid(col)) {
                std::cerr << "invalid position: " << moves << std::endl;
                return 1;
            }
            pos.move(col);
        }
        unsigned long long before = solver.get_merged_stats().get_num_nodes();
        int score = solver.solve_strong(pos);
        unsigned long long nodes = solver.get_merged_stats().get_num_nodes() - before;
        std::cout << moves << ' ' << pons_score(pos, score) << ' ' << nodes << std::endl;
    }
    return 0;
}
