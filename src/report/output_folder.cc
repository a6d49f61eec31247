#include "report/output_folder.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "core/file_sink.h"

namespace aifabric {
OutputFolder::~OutputFolder() {
  for (const Pending& file : pending_) std::remove(file.temporary.c_str());
}

Status OutputFolder::Write(const std::string& name, std::string_view contents) {
  return Stream(name, [contents](TextSink& sink) { sink.Append(contents); });
}

Status OutputFolder::Stream(const std::string& name, const std::function<void(TextSink&)>& write) {
  const std::filesystem::path relative(name);
  if (name.empty() || relative.is_absolute() ||
      std::any_of(relative.begin(), relative.end(), [](const std::filesystem::path& part) { return part == ".."; })) {
    return Error{"output file '" + name + "' would be outside the output folder " + dir_ +
                 " (a file name below it was expected)"};
  }
  const std::string path = dir_ + "/" + name;
  const std::string folder = std::filesystem::path(path).parent_path().string();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return Error{"cannot create output folder " + folder + ": " + ec.message()};
  FileSink sink(path);
  write(sink);
  if (Status st = sink.Finish(); !st.ok()) return st;
  pending_.push_back(Pending{sink.temporary_path(), path});
  names_.push_back(name);
  return Status::Ok();
}

Status OutputFolder::Commit() {
  for (size_t i = 0; i < pending_.size(); ++i) {
    std::error_code ec;
    std::filesystem::rename(pending_[i].temporary, pending_[i].path, ec);
    if (ec) {
      const Error error{"cannot rename " + pending_[i].temporary + " to " + pending_[i].path + ": " + ec.message()};
      // Nothing of this run stays: the files already in place go, and the
      // destructor removes the temporaries not renamed.
      for (size_t j = 0; j < i; ++j) std::filesystem::remove(pending_[j].path, ec);
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(i));
      return error;
    }
  }
  pending_.clear();
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  FileSink sink(path);
  sink.Append(contents);
  return sink.Close();
}

}  // namespace aifabric
