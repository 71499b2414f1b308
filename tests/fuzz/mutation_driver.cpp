// A seeded random-mutation loop around LLVMFuzzerTestOneInput, built with
// the project's compiler so each fuzz target runs in every build, with or
// without libFuzzer. Linked once per target (tdv reader, config loader, sweep
// parsers, ray files, meshes).
// Usage: <driver> lines|files SEED ITERATIONS CORPUS_FILE...
//   lines: each input is a `tdv 1` header and 1-3 case lines of the corpus;
//   files: each input is one whole corpus file.
// Then 1-4 mutations: bit flips, inserted bytes, erased and duplicated
// ranges, structural tokens of both formats, truncation.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

// Tokens that steer mutations toward the formats' structure (tdv, YAML, ray
// CSV and the mesh formats).
const char* const kTokens[] = {"tdv 1\n", "name=", "desc=", "op=bvh", "op=bvh64", "ptr=", "a16=1", "a16=0",
                               "ray=", "exec=0", "mem=", "expect=none", "expect=", ",", "=", " ", "\n",
                               "#", "ffffffff", "7fc00000", "7f800000", "\r\n", "\t", "00000000",
                               ": ", "- ", "[", "]", "{", "}", "&a ", "*a", "!!str ", "---\n", "...\n",
                               "\"", "'", "|\n", "  ", "-1", "0x10", "1e400", ".inf", "~", "null",
                               "ox,oy,oz,dx,dy,dz,tmax\n", "inf", "nan", "-0", "1e-45", "3.4e38",
                               "v ", "f ", "vn ", "vt ", "/", "o ", "g ", "usemtl m\n", "mtllib a.mtl\n",
                               "OFF\n", "ply\n", "format ascii 1.0\n", "format binary_little_endian 1.0\n",
                               "element vertex ", "element face ", "property float x\n",
                               "property list uchar int vertex_indices\n", "end_header\n", "comment ",
                               "solid s\n", "facet normal 0 0 1\n", "outer loop\n", "vertex ", "endloop\n",
                               "endfacet\n", "endsolid\n", "4294967295", "2147483648", "65535"};

std::string mutate(std::string input, std::mt19937_64& rng) {
  const auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  const int steps = 1 + static_cast<int>(rng() % 4);
  for (int s = 0; s < steps; ++s) {
    switch (rng() % 6) {
      case 0:  // flip a bit
        if (!input.empty()) input[pick(input.size())] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1:  // random byte inserted
        input.insert(pick(input.size() + 1), 1, static_cast<char>(rng() % 256));
        break;
      case 2: {  // erase a range
        if (input.empty()) break;
        const size_t at = pick(input.size());
        input.erase(at, 1 + pick(std::min<size_t>(64, input.size() - at)));
        break;
      }
      case 3: {  // structural token inserted
        const std::string token = kTokens[pick(sizeof kTokens / sizeof kTokens[0])];
        input.insert(pick(input.size() + 1), token);
        break;
      }
      case 4: {  // duplicate a range (duplicate keys, names, lines)
        if (input.empty()) break;
        const size_t at = pick(input.size());
        const std::string piece = input.substr(at, 1 + pick(80));
        input.insert(pick(input.size() + 1), piece);
        break;
      }
      default:  // truncate
        input.resize(pick(input.size() + 1));
        break;
    }
  }
  return input;
}

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << path << ": cannot open\n";
    std::exit(2);
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

// Case lines of a tdv file (comments and header dropped).
std::vector<std::string> case_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#' && line != "tdv 1") lines.push_back(line);
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5 || (std::string(argv[1]) != "lines" && std::string(argv[1]) != "files")) {
    std::cerr << "usage: " << argv[0] << " lines|files SEED ITERATIONS CORPUS_FILE...\n";
    return 2;
  }
  const bool by_lines = std::string(argv[1]) == "lines";
  const uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  const long iterations = std::strtol(argv[3], nullptr, 10);
  std::vector<std::string> pieces;  // case lines, or whole files
  for (int i = 4; i < argc; ++i) {
    const std::string text = read_file(argv[i]);
    if (!by_lines) {
      pieces.push_back(text);
      continue;
    }
    const auto lines = case_lines(text);
    pieces.insert(pieces.end(), lines.begin(), lines.end());
  }
  if (pieces.empty()) {
    std::cerr << "empty corpus\n";
    return 2;
  }
  std::mt19937_64 rng(seed);
  std::cout << argv[0] << ": seed " << seed << ", " << iterations << " inputs\n";
  for (long i = 0; i < iterations; ++i) {
    std::string input;
    if (by_lines) {
      input = "tdv 1\n";
      const int count = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < count; ++k) input += pieces[rng() % pieces.size()] + "\n";
    } else {
      input = pieces[rng() % pieces.size()];
    }
    const std::string mutated = mutate(input, rng);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(mutated.data()), mutated.size());
  }
  std::cout << "done: no crash\n";
  return 0;
}
