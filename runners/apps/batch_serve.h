// batch_serve.h: the loop of the engine's batch commands (zmstar_info, security_info): one
// request a line on stdin, one JSON answer a line on stdout, in order, blank lines skipped;
// the output is flushed whenever no further request is waiting, so a caller that keeps the
// command open (sage/cbparams/batch.py) gets each answer at once.
#pragma once

#include <iostream>
#include <string>

namespace cb::apps {

// answer(line) returns the JSON of one request ({"error": ...} for a refused one).
template <class Answer>
int serve_lines(Answer answer) {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::cout << answer(line).dump() << "\n";
    if (std::cin.rdbuf()->in_avail() <= 0) std::cout.flush();
  }
  return 0;
}

}  // namespace cb::apps
