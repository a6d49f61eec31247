// The file layer: length-delimited messages exactly as chakra's protoio and
// protolib.py write them, gzip recognised, every kind of bad input refused
// with the path and byte offset, and a trace set found from its prefix.
#include "chakra/chakra_trace_file.h"

#include <cstring>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <gtest/gtest.h>

#include "chakra/chakra_nodes.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class ChakraTraceFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           (std::string("aifabric_chakra_file_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  static void WriteBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  static std::string ReadBytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  }
  static ChakraRankTrace Sample() {
    ChakraRankTrace t;
    t.metadata = MakeChakraMetadata();
    t.nodes.push_back(MakeChakraCompute(1, "fwd", 100));
    t.nodes.push_back(MakeChakraCollective(2, "ar", ChakraProtoMsg::ALL_REDUCE, 1 << 20, {1}, "3"));
    t.nodes.push_back(MakeChakraSend(3, "send", 0, 1, 4096, 7, {2}));
    return t;
  }

  fs::path dir_;
};

TEST_F(ChakraTraceFile, RoundTripKeepsEveryMessage) {
  const ChakraRankTrace t = Sample();
  ASSERT_TRUE(WriteChakraTraceFile(Path("t.0.et"), t).ok());
  Result<ChakraRankTrace> back = ReadChakraTraceFile(Path("t.0.et"));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->metadata.version(), "0.0.4");
  ASSERT_EQ(back->nodes.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(back->nodes[i].SerializeAsString(), t.nodes[i].SerializeAsString());
}

TEST_F(ChakraTraceFile, TheReaderStreamsOneNodeAtATime) {
  ASSERT_TRUE(WriteChakraTraceFile(Path("t.0.et"), Sample()).ok());
  Result<std::unique_ptr<ChakraTraceReader>> reader = ChakraTraceReader::Open(Path("t.0.et"));
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  EXPECT_EQ((*reader)->metadata().version(), "0.0.4");
  std::vector<uint64_t> ids;
  ChakraProtoMsg::Node node;
  while (true) {
    Result<bool> more = (*reader)->Next(node);
    ASSERT_TRUE(more.ok()) << more.error().message;
    if (!*more) break;
    ids.push_back(node.id());
  }
  EXPECT_EQ(ids, (std::vector<uint64_t>{1, 2, 3}));
  Result<bool> after = (*reader)->Next(node);  // stays at the end
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(*after);
}

TEST_F(ChakraTraceFile, FramingIsAVarintLengthThenTheMessage) {
  // GlobalMetadata{version: "0.0.4"} is field 1, wire type 2: 0a 05 "0.0.4"
  // (7 bytes), so the file starts 07 0a 05 '0' '.' '0' '.' '4' — what
  // protolib.encodeMessage writes.
  ChakraRankTrace t;
  t.metadata = MakeChakraMetadata();
  ASSERT_TRUE(WriteChakraTraceFile(Path("m.0.et"), t).ok());
  EXPECT_EQ(ReadBytes(Path("m.0.et")), std::string("\x07\x0a\x05" "0.0.4", 8));
}

TEST_F(ChakraTraceFile, ReadsGzippedTraces) {
  // chakra's protoio reads a gzip stream when the file starts with 1f 8b.
  const ChakraRankTrace t = Sample();
  ASSERT_TRUE(WriteChakraTraceFile(Path("plain.et"), t).ok());
  const std::string plain = ReadBytes(Path("plain.et"));
  {
    std::ofstream out(Path("z.0.et"), std::ios::binary);
    google::protobuf::io::OstreamOutputStream raw(&out);
    google::protobuf::io::GzipOutputStream zip(&raw);
    void* data = nullptr;
    int size = 0;
    size_t done = 0;
    while (done < plain.size() && zip.Next(&data, &size)) {
      const size_t n = std::min(plain.size() - done, static_cast<size_t>(size));
      std::memcpy(data, plain.data() + done, n);
      done += n;
      if (n < static_cast<size_t>(size)) zip.BackUp(static_cast<int>(size - n));
    }
    ASSERT_TRUE(zip.Close());
  }
  Result<ChakraRankTrace> back = ReadChakraTraceFile(Path("z.0.et"));
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->nodes.size(), 3u);
  EXPECT_EQ(back->nodes[2].SerializeAsString(), t.nodes[2].SerializeAsString());
}

TEST_F(ChakraTraceFile, BadInputIsAnErrorNamingPathAndOffset) {
  const std::string good = [&] {
    EXPECT_TRUE(WriteChakraTraceFile(Path("good.et"), Sample()).ok());
    return ReadBytes(Path("good.et"));
  }();
  auto error_of = [&](const std::string& bytes) {
    WriteBytes(Path("bad.et"), bytes);
    Result<ChakraRankTrace> r = ReadChakraTraceFile(Path("bad.et"));
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error().message;
  };
  const std::string bad = Path("bad.et");
  EXPECT_THAT(error_of(good.substr(0, good.size() - 5)),
              HasSubstr("truncated message: its prefix declares"));
  EXPECT_THAT(error_of(good.substr(0, good.size() - 5)), HasSubstr(bad + ": byte "));
  // The metadata (8 bytes), then a varint cut short.
  EXPECT_EQ(error_of(good.substr(0, 8) + "\x80"),
            bad + ": byte 8: truncated length prefix (the file ends inside a varint)");
  EXPECT_EQ(error_of(good.substr(0, 8) + std::string(11, '\xff')),
            bad + ": byte 8: bad length prefix (a varint longer than 64 bits)");
  // 100 MiB declared: 0x6400000 as a varint.
  EXPECT_THAT(error_of(good.substr(0, 8) + std::string("\x80\x80\x80\x32", 4)),
              HasSubstr("byte 8: a message of 104857600 bytes, more than the limit of 67108864"));
  // Field 1 with wire type 7 does not exist.
  EXPECT_EQ(error_of(good.substr(0, 8) + std::string("\x02\x0f\x01", 3)),
            bad + ": byte 8: node #1 does not parse as a Chakra Node");
  EXPECT_EQ(error_of(""), bad + ": empty file (a Chakra trace starts with a GlobalMetadata message)");
  Result<ChakraRankTrace> missing = ReadChakraTraceFile(Path("nope.et"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, Path("nope.et") + ": cannot open");
}

TEST_F(ChakraTraceFile, NodeCountIsBounded) {
  ASSERT_TRUE(WriteChakraTraceFile(Path("t.et"), Sample()).ok());
  ChakraFileLimits limits;
  limits.max_nodes = 2;
  Result<ChakraRankTrace> r = ReadChakraTraceFile(Path("t.et"), limits);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("more than 2 nodes"));
}

TEST_F(ChakraTraceFile, FindsTheFilesOfAPrefixInRankOrder) {
  const std::string prefix = Path("job");
  ASSERT_TRUE(WriteChakraTraces(prefix, {Sample(), Sample(), Sample()}).ok());
  for (const char* other : {"job.x.et", "job.01.et", "jobs.4.et", "job.3.et.bak", "other.0.et"}) {
    WriteBytes(Path(other), "");
  }
  for (int r = 3; r < 11; ++r) ASSERT_TRUE(WriteChakraTraceFile(ChakraTracePath(prefix, r), Sample()).ok());
  Result<std::vector<std::string>> files = FindChakraTraceFiles(prefix);
  ASSERT_TRUE(files.ok()) << files.error().message;
  ASSERT_EQ(files->size(), 11u);
  EXPECT_EQ((*files)[0], Path("job.0.et"));
  EXPECT_EQ((*files)[2], Path("job.2.et"));
  EXPECT_EQ((*files)[10], Path("job.10.et"));  // numeric, not lexical, order

  fs::remove(Path("job.1.et"));
  Result<std::vector<std::string>> gap = FindChakraTraceFiles(prefix);
  ASSERT_FALSE(gap.ok());
  EXPECT_EQ(gap.error().message, prefix + ": " + Path("job.1.et") + " is missing (rank 2 has a file)");
  EXPECT_THAT(FindChakraTraceFiles(Path("none")).error().message, HasSubstr("no trace files"));
}

}  // namespace
}  // namespace aifabric
