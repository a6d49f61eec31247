// OutputFolder is the folder a command writes its files into (--out). Each
// file is streamed through a fixed buffer (core/file_sink.h) to a
// temporary name beside its own (NAME.tmp), so a file of any size holds
// only the buffer in memory, and Commit renames them all into place at the
// end: a reader never sees half a file, and a command that fails leaves
// none of its new files behind (what was not committed is removed when the
// folder object goes; a Commit that fails partway removes the files it had
// already renamed into place). A name that would climb out of the folder
// (absolute, or with a `..` part) is an error. Not thread-safe.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/text_sink.h"

namespace aifabric {

// A file to write: its name below the output folder, and its contents.
using OutputFile = std::pair<std::string, std::string>;

class OutputFolder {
 public:
  explicit OutputFolder(std::string dir) : dir_(std::move(dir)) {}
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  const std::string& dir() const { return dir_; }
  // Writes `contents` as `name`, a path below the folder ("summary.json",
  // "topology+crux/jobs.csv"), creating the folders it needs. Errors name
  // the file; a name outside the folder (absolute, or with a `..` part)
  // is an error naming it.
  Status Write(const std::string& name, std::string_view contents);
  // The same for a file `write` appends to the sink it is given, as it
  // formats it; errors name the file and the OS reason.
  Status Stream(const std::string& name, const std::function<void(TextSink&)>& write);
  // Renames every file written into place, in the order written; if one
  // cannot be, removes those renamed before it and returns the error.
  Status Commit();
  // The names written so far, in order, as given to Write.
  const std::vector<std::string>& names() const { return names_; }

 private:
  const std::string dir_;
  std::vector<std::string> names_;
  struct Pending {
    std::string temporary;  // written and closed
    std::string path;       // where Commit renames it to
  };
  std::vector<Pending> pending_;
};

// Writes `contents` to `path` through a temporary file renamed into place.
Status WriteFileAtomically(const std::string& path, std::string_view contents);

}  // namespace aifabric
