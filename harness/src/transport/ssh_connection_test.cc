// What a user reads when libssh cannot agree on algorithms with a server.
#include "ssh_connection.h"

#include <gtest/gtest.h>

namespace labgate::transport {
namespace {

TEST(ExplainConnectError, KexMismatchNamesTheClassAndTheFix) {
  const std::string libssh =
      "kex error : no match for method kex algos: server [diffie-hellman-group-exchange-sha1,"
      "diffie-hellman-group14-sha1,diffie-hellman-group1-sha1], client [curve25519-sha256]";
  const std::string msg = explain_connect_error(libssh, false);
  EXPECT_NE(msg.find("key exchange (KexAlgorithms)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("diffie-hellman-group1-sha1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("legacy_algorithms = true"), std::string::npos) << msg;
}

TEST(ExplainConnectError, EachAlgorithmClass) {
  auto explain = [](const std::string& what) {
    return explain_connect_error("kex error : no match for method " + what + ": server [x], client [y]",
                                 false);
  };
  EXPECT_NE(explain("server host key algo").find("host key (HostKeyAlgorithms)"), std::string::npos);
  EXPECT_NE(explain("encryption client->server").find("cipher (Ciphers)"), std::string::npos);
  EXPECT_NE(explain("mac algo server->client").find("MAC (MACs)"), std::string::npos);
}

TEST(ExplainConnectError, WithLegacyOnItDoesNotSuggestIt) {
  const std::string msg = explain_connect_error(
      "kex error : no match for method mac algo client->server: server [umac-32], "
      "client [hmac-sha1]",
      true);
  EXPECT_EQ(msg.find("set `legacy_algorithms"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not even"), std::string::npos) << msg;
}

TEST(ExplainConnectError, UnroutableAddressPointsAtTheBastion) {
  const std::string msg = explain_connect_error("Failed to connect: Invalid argument", false);
  EXPECT_NE(msg.find("no route to that address"), std::string::npos) << msg;
  EXPECT_NE(msg.find("proxy_jump"), std::string::npos) << msg;
}

TEST(ExplainConnectError, OtherErrorsPassThrough) {
  EXPECT_EQ(explain_connect_error("Connection refused", false), "Connection refused");
}

TEST(ExplainConnectError, AnOldServerThatClosedDuringKeyExchangeIsNamedWithTheFix) {
  const std::string msg = explain_connect_error("Socket error: Success", false, "SSH-2.0-OpenSSH_4.3");
  EXPECT_NE(msg.find("(SSH-2.0-OpenSSH_4.3) closed the connection during key exchange"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("legacy_algorithms = true"), std::string::npos) << msg;
}

TEST(ExplainConnectError, AModernServerThatClosedIsNotToldToLowerItsAlgorithms) {
  for (const char* banner : {"SSH-2.0-OpenSSH_7.2", "SSH-2.0-OpenSSH_9.2p1 Debian-2", "SSH-2.0-dropbear"}) {
    const std::string msg = explain_connect_error("Socket error: disconnected", false, banner);
    EXPECT_NE(msg.find("closed the connection during key exchange"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("legacy_algorithms"), std::string::npos) << msg;
  }
  // Already on: nothing more to suggest.
  EXPECT_EQ(
      explain_connect_error("Socket error: Success", true, "SSH-2.0-OpenSSH_4.3").find("legacy_algorithms"),
      std::string::npos);
  // No banner: the connection never got that far, the error stands as it is.
  EXPECT_EQ(explain_connect_error("Socket error: Success", false), "Socket error: Success");
}

}  // namespace
}  // namespace labgate::transport
