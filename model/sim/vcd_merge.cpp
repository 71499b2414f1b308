#include "model/sim/vcd_merge.h"

#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "model/sim/output_file.h"

namespace td::sim {

std::string vcd_identifier_code(std::size_t index) {
  std::string code;
  do {
    code += static_cast<char>('!' + index % 94);
    index /= 94;
  } while (index != 0);
  return code;
}

namespace {

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// A scope's contents in the order first declared: child scopes by name,
// variables as (code, the rest of the declaration after the code).
struct Scope {
  std::string name;
  std::vector<std::unique_ptr<Scope>> scopes;
  std::vector<std::pair<std::string, std::string>> vars;  // (code, "name [range]")
  std::vector<std::string> var_sizes;                     // "wire 1", "wire 128"

  Scope& child(const std::string& child_name) {
    for (const auto& s : scopes)
      if (s->name == child_name) return *s;
    scopes.push_back(std::make_unique<Scope>());
    scopes.back()->name = child_name;
    return *scopes.back();
  }
};

// One input file: its header into `root`, then its value changes a time
// block at a time.
class VcdReader {
 public:
  explicit VcdReader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_.is_open()) throw std::runtime_error(fmt::format("{}: cannot open", path));
  }

  // Reads declarations up to $enddefinitions into `root` (joining scopes
  // that `root` already has). `rename` maps this file's codes to the
  // output's (empty: kept); new codes are numbered from `next_code`.
  void read_header(Scope& root, bool renumber, std::size_t& next_code) {
    std::vector<Scope*> stack{&root};
    std::string line;
    while (std::getline(in_, line)) {
      ++line_number_;
      const std::vector<std::string> w = words_of(line);
      if (w.empty()) continue;
      if (w[0] == "$timescale") {
        timescale_ = w.size() > 1 && w[1] != "$end" ? w[1] : "";
        if (timescale_.empty()) {  // the unit on the next line
          std::getline(in_, line);
          ++line_number_;
          const std::vector<std::string> unit = words_of(line);
          if (!unit.empty()) timescale_ = unit[0];
        }
      } else if (w[0] == "$scope") {
        if (w.size() < 3) fail("a $scope without a name");
        // Verilator names a model's scope with its whole dotted name.
        Scope* scope = stack.back();
        std::vector<Scope*> opened;
        for (size_t begin = 0;;) {
          const size_t dot = w[2].find('.', begin);
          scope = &scope->child(w[2].substr(begin, dot - begin));
          opened.push_back(scope);
          if (dot == std::string::npos) break;
          begin = dot + 1;
        }
        depth_.push_back(opened.size());
        for (Scope* s : opened) stack.push_back(s);
      } else if (w[0] == "$upscope") {
        if (depth_.empty()) fail("$upscope without a $scope");
        for (size_t i = 0; i < depth_.back(); ++i) stack.pop_back();
        depth_.pop_back();
      } else if (w[0] == "$var") {
        // $var <type> <size> <code> <name> [range] $end
        if (w.size() < 6) fail("a $var with too few fields");
        std::string code = w[3];
        if (renumber) {
          const auto [it, added] = codes_.emplace(code, "");
          if (added) it->second = vcd_identifier_code(next_code++);
          code = it->second;
        } else if (codes_.emplace(code, code).second) {
          ++next_code;
        }
        std::string rest = w[4];
        for (size_t i = 5; i + 1 < w.size(); ++i) rest += " " + w[i];
        stack.back()->vars.emplace_back(code, rest);
        stack.back()->var_sizes.push_back(w[1] + " " + w[2]);
      } else if (w[0] == "$enddefinitions") {
        return;
      }
    }
    fail("no $enddefinitions");
  }

  const std::string& timescale() const { return timescale_; }
  const std::string& path() const { return path_; }

  // The next "#time" block's time and its change lines (renumbered);
  // false at the end of the file. Keywords ($dumpvars, $end, ...) are
  // dropped: a viewer takes the first time's values as the initial ones.
  bool next_block(uint64_t& time, std::vector<std::string>& lines) {
    lines.clear();
    std::string line;
    if (!pending_time_) {
      while (std::getline(in_, line)) {
        ++line_number_;
        if (!line.empty() && line[0] == '#') {
          pending_time_ = true;
          pending_ = parse_time(line);
          break;
        }
      }
      if (!pending_time_) return false;
    }
    time = pending_;
    pending_time_ = false;
    while (std::getline(in_, line)) {
      ++line_number_;
      if (line.empty()) continue;
      if (line[0] == '#') {
        pending_time_ = true;
        pending_ = parse_time(line);
        break;
      }
      if (line[0] == '$') continue;
      lines.push_back(renamed(line));
    }
    return true;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error(fmt::format("{}:{}: not a VCD file the merge can read: {}", path_, line_number_, why));
  }

  uint64_t parse_time(const std::string& line) const {
    uint64_t t = 0;
    if (line.size() < 2) fail("an empty time");
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] < '0' || line[i] > '9') fail("a time that is not a whole number");
      t = t * 10 + static_cast<uint64_t>(line[i] - '0');
    }
    return t;
  }

  // "1!" or "b0101 !" or "r1.5 !": the code is after the value.
  std::string renamed(const std::string& line) const {
    const bool vector = line[0] == 'b' || line[0] == 'B' || line[0] == 'r' || line[0] == 'R';
    const size_t code_at = vector ? line.find(' ') + 1 : 1;
    if (vector && code_at == 0) fail("a vector change without a code");
    size_t code_end = line.find_first_of(" \r", code_at);
    if (code_end == std::string::npos) code_end = line.size();
    const auto it = codes_.find(line.substr(code_at, code_end - code_at));
    if (it == codes_.end()) fail("a change of an undeclared code");
    return line.substr(0, code_at) + it->second;
  }

  std::string path_;
  std::ifstream in_;
  size_t line_number_ = 0;
  std::string timescale_;
  std::vector<size_t> depth_;  // scopes each open $scope pushed
  std::unordered_map<std::string, std::string> codes_;
  bool pending_time_ = false;
  uint64_t pending_ = 0;
};

void write_scope(const Scope& scope, std::string& out) {
  for (size_t i = 0; i < scope.vars.size(); ++i)
    out += fmt::format("$var {} {} {} $end\n", scope.var_sizes[i], scope.vars[i].first, scope.vars[i].second);
  for (const auto& child : scope.scopes) {
    out += fmt::format("$scope module {} $end\n", child->name);
    write_scope(*child, out);
    out += "$upscope $end\n";
  }
}

}  // namespace

void merge_vcd(const std::string& main_path, const std::string& extra_path, const std::string& out_path) {
  VcdReader main(main_path), extra(extra_path);
  Scope root;
  size_t codes = 0;
  main.read_header(root, false, codes);
  extra.read_header(root, true, codes);
  if (main.timescale() != extra.timescale())
    throw std::runtime_error(fmt::format("{}: time unit {} is not {}'s ({})", extra_path, extra.timescale(), main_path,
                                         main.timescale()));
  OutputFile out(out_path);
  // No path in the header: the same run gives the same bytes.
  std::string text = fmt::format("$version tdsim, merged with a second writer's trace $end\n$timescale {} $end\n",
                                 main.timescale());
  write_scope(root, text);
  text += "$enddefinitions $end\n";
  uint64_t main_time = 0, extra_time = 0;
  std::vector<std::string> main_lines, extra_lines;
  bool main_has = main.next_block(main_time, main_lines), extra_has = extra.next_block(extra_time, extra_lines);
  while (main_has || extra_has) {
    const uint64_t time = !extra_has ? main_time : !main_has ? extra_time : std::min(main_time, extra_time);
    text += fmt::format("#{}\n", time);
    if (main_has && main_time == time) {
      for (const std::string& line : main_lines) text += line + '\n';
      main_has = main.next_block(main_time, main_lines);
    }
    if (extra_has && extra_time == time) {
      for (const std::string& line : extra_lines) text += line + '\n';
      extra_has = extra.next_block(extra_time, extra_lines);
    }
    if (text.size() >= (size_t{1} << 20)) {
      out.write(text);
      text.clear();
    }
  }
  out.write(text);
  out.commit();
}

}  // namespace td::sim
