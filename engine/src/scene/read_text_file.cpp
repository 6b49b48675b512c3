#include "read_text_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace impetus {

bool readTextFile(const std::string& path, std::string& content, std::string& problem) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) {
    problem = "cannot open the file";
    return false;
  }
  if (!std::filesystem::is_regular_file(status)) {
    problem = "not a regular file";
    return false;
  }
  if (std::filesystem::file_size(path, error) > std::uintmax_t(kMaxSceneFileBytes) || error) {
    problem = "larger than 256 MB";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problem = "cannot open the file";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  content = text.str();
  return true;
}

}  // namespace impetus
