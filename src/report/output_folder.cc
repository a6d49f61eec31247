#include "report/output_folder.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace aifabric {
namespace {

std::string TempPath(const std::string& path) { return path + ".tmp"; }

Status WriteTemp(const std::string& path, std::string_view contents) {
  const std::string tmp = TempPath(path);
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) return Error{"cannot write " + tmp};
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.close();
  if (!out) {
    std::remove(tmp.c_str());
    return Error{"cannot write " + tmp};
  }
  return Status::Ok();
}

Status RenameIntoPlace(const std::string& path) {
  std::error_code ec;
  std::filesystem::rename(TempPath(path), path, ec);
  if (ec) return Error{"cannot rename " + TempPath(path) + " to " + path + ": " + ec.message()};
  return Status::Ok();
}

}  // namespace

OutputFolder::~OutputFolder() {
  for (const std::string& path : pending_) std::remove(TempPath(path).c_str());
}

Status OutputFolder::Write(const std::string& name, std::string_view contents) {
  const std::string path = dir_ + "/" + name;
  const std::string folder = std::filesystem::path(path).parent_path().string();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return Error{"cannot create output folder " + folder + ": " + ec.message()};
  if (Status st = WriteTemp(path, contents); !st.ok()) return st;
  pending_.push_back(path);
  names_.push_back(name);
  return Status::Ok();
}

Status OutputFolder::Commit() {
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (Status st = RenameIntoPlace(pending_[i]); !st.ok()) {
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(i));
      return st;
    }
  }
  pending_.clear();
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  if (Status st = WriteTemp(path, contents); !st.ok()) return st;
  return RenameIntoPlace(path);
}

}  // namespace aifabric
