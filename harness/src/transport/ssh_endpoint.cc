// SSH endpoint set-up: options, host key verdict, login (shared by target and hops).
#include "ssh_endpoint.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

#include "labgate/transport/known_hosts.h"
#include "labgate/util/exit_code.h"
#include "ssh_connection.h"

namespace labgate::transport {

namespace {

// What `legacy_algorithms = true` adds to libssh 0.10's defaults: exactly what
// OpenSSH 4.3p2 (RHEL 5) needs, modern algorithms first so a new server still
// negotiates something strong.
constexpr const char* kLegacyKex =
    "curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp256,ecdh-sha2-nistp384,"
    "ecdh-sha2-nistp521,diffie-hellman-group18-sha512,diffie-hellman-group16-sha512,"
    "diffie-hellman-group-exchange-sha256,diffie-hellman-group14-sha256,"
    "diffie-hellman-group-exchange-sha1,diffie-hellman-group14-sha1,diffie-hellman-group1-sha1";
constexpr const char* kLegacyHostKeys =
    "ssh-ed25519,ecdsa-sha2-nistp521,ecdsa-sha2-nistp384,ecdsa-sha2-nistp256,rsa-sha2-512,"
    "rsa-sha2-256,ssh-rsa";
constexpr const char* kLegacyHmac =
    "hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,hmac-sha2-256,hmac-sha2-512,hmac-sha1";
// Separate from host keys: without ssh-rsa here the key exchange works but the
// RSA key login is refused by a 4.3 server that knows no rsa-sha2-*.
constexpr const char* kLegacyPubkeyTypes = kLegacyHostKeys;

std::string fingerprint_of(ssh_key key) {
  unsigned char* hash = nullptr;
  size_t len = 0;
  std::string fp = "(unknown)";
  if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &len) == SSH_OK) {
    if (char* s = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, len)) {
      fp = s;
      ssh_string_free_char(s);
    }
    ssh_clean_pubkey_hash(&hash);
  }
  return fp;
}

void set_options(ssh_session s, const profile::Host& h, const std::string& who, int fd) {
  const auto& o = h.ssh;
  auto set = [&](ssh_options_e opt, const void* value, const char* name) {
    if (ssh_options_set(s, opt, value) != SSH_OK) {
      could_not_run(who + ": libssh rejects option " + name + ": " + ssh_get_error(s));
    }
  };
  // The profile is the whole configuration: ~/.ssh/config must not change a
  // gate's algorithms, user or host keys behind its back.
  const int no = 0, yes = 1;
  set(SSH_OPTIONS_PROCESS_CONFIG, &no, "PROCESS_CONFIG");
  set(SSH_OPTIONS_HOST, h.address.c_str(), "HOST");
  if (fd >= 0) set(SSH_OPTIONS_FD, &fd, "FD");  // through a jump host: no TCP connect of our own
  const unsigned port = static_cast<unsigned>(o.port);
  set(SSH_OPTIONS_PORT, &port, "PORT");
  set(SSH_OPTIONS_USER, o.user.c_str(), "USER");
  const std::string known = expand_home(o.known_hosts);
  set(SSH_OPTIONS_KNOWNHOSTS, known.c_str(), "KNOWNHOSTS");
  // Only the profile's known_hosts vouches for a host, not /etc/ssh/ssh_known_hosts.
  set(SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null", "GLOBAL_KNOWNHOSTS");
  const long secs =
      static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(o.connect_timeout).count());
  const long usecs = static_cast<long>(
      std::chrono::duration_cast<std::chrono::microseconds>(o.connect_timeout).count() % 1000000);
  set(SSH_OPTIONS_TIMEOUT, &secs, "TIMEOUT");
  set(SSH_OPTIONS_TIMEOUT_USEC, &usecs, "TIMEOUT_USEC");
  set(SSH_OPTIONS_NODELAY, &yes, "NODELAY");  // small commands: latency, not batching
  if (o.legacy_algorithms) {
    set(SSH_OPTIONS_KEY_EXCHANGE, kLegacyKex, "KEY_EXCHANGE");
    set(SSH_OPTIONS_HOSTKEYS, kLegacyHostKeys, "HOSTKEYS");
    set(SSH_OPTIONS_HMAC_C_S, kLegacyHmac, "HMAC_C_S");
    set(SSH_OPTIONS_HMAC_S_C, kLegacyHmac, "HMAC_S_C");
    set(SSH_OPTIONS_PUBLICKEY_ACCEPTED_TYPES, kLegacyPubkeyTypes, "PUBLICKEY_ACCEPTED_TYPES");
  }
}

// libssh 0.10's ssh_get_kex_algo names every method it implements except the
// group exchanges (diffie-hellman-group-exchange-sha1/-sha256, what OpenSSH 4.3
// prefers), for which it returns NULL; it does not say which hash was used.
std::string kex_name(ssh_session s) {
  const char* k = ssh_get_kex_algo(s);
  return k ? k : "diffie-hellman-group-exchange (libssh 0.10 does not say which hash)";
}

}  // namespace

std::string expand_home(const std::string& path) {
  if (path.rfind("~/", 0) == 0) {
    if (const char* home = std::getenv("HOME")) return std::string(home) + path.substr(1);
  }
  return path;
}

HostKeyInfo server_host_key(ssh_session s, const profile::Host& h, const std::string& who) {
  ssh_key key = nullptr;
  if (ssh_get_server_publickey(s, &key) != SSH_OK)
    could_not_run(who + ": the server sent no host key: " + ssh_get_error(s));
  HostKeyInfo k;
  k.fingerprint = fingerprint_of(key);
  k.type = or_unknown(ssh_key_type_to_char(ssh_key_type(key)));
  char* b64 = nullptr;
  if (ssh_pki_export_pubkey_base64(key, &b64) == SSH_OK && b64) {
    k.base64 = b64;
    ssh_string_free_char(b64);
  }
  ssh_key_free(key);
  k.name = known_hosts_name(h.address, h.ssh.port);
  return k;
}

void verify_host_key(ssh_session s, const profile::Host& h, const std::string& who) {
  const HostKeyInfo k = server_host_key(s, h, who);
  const std::string known = expand_home(h.ssh.known_hosts);
  const std::string how =
      "After checking the fingerprint out of band (on the server: ssh-keygen -lf "
      "/etc/ssh/ssh_host_*_key.pub; or list every host's and jump host's key with `labgate keyscan "
      "PROFILE`), accept it with `labgate keyscan PROFILE --write`\nor add this line to " +
      known + ":\n  " + k.line();
  const HostKeyVerdict v = check_host_key_file(known, k.name, k.type, k.base64);
  const std::string at = known + ":" + std::to_string(v.line);
  switch (v.status) {
    case HostKeyStatus::kOk:
      return;
    case HostKeyStatus::kRevoked:
      could_not_run(who + ": REVOKED HOST KEY: the server presents " + k.type + " key " + k.fingerprint +
                    ", which " + at +
                    " marks @revoked; refusing (whatever accept_new_host_keys says; a revoked "
                    "key is never written to known_hosts)");
    case HostKeyStatus::kChanged:
      could_not_run(who + ": HOST KEY CHANGED. The server presents " + k.type + " key " + k.fingerprint +
                    ", but " + at + " holds a different " + k.type +
                    " key for it. This may be a reinstalled server or an attacker; "
                    "refusing. If the change is expected, remove the old entry (ssh-keygen -R '" +
                    k.name + "' -f " + known + ") and: " + how);
    case HostKeyStatus::kOther:
      could_not_run(who + ": host key of another type: the server presents " + k.type + " key " +
                    k.fingerprint + ", but " + known + " holds only other key types for it (e.g. line " +
                    std::to_string(v.line) + "); refusing. " + how);
    case HostKeyStatus::kCertAuthorityOnly:
      could_not_run(who + ": only the @cert-authority line " + at +
                    " vouches for this host, and host certificates are not supported by labgate (libssh 0.10 "
                    "cannot verify them against a CA); refusing. Add the host's own key instead. " +
                    how);
    case HostKeyStatus::kUnknown:
      break;
  }
  if (h.ssh.accept_new_host_keys) {
    if (std::string e = append_known_hosts_line(known, k.line()); !e.empty())
      could_not_run(who + ": accept_new_host_keys is set but " + e);
    spdlog::warn(
        "{}: ACCEPTED NEW HOST KEY {} {} into {} (accept_new_host_keys = true in the profile; "
        "turn it off once the pair is known)",
        who, k.type, k.fingerprint, known);
    return;
  }
  const bool missing = access(known.c_str(), R_OK) != 0;
  could_not_run(who + ": unknown host key: the server presents " + k.type + " key " + k.fingerprint +
                " and " +
                (missing ? known + " does not exist or cannot be read" : known + " has no entry for it") +
                "; refusing (no silent accept). " + how);
}

void authenticate(ssh_session s, const profile::Host& h, const std::string& who) {
  const auto& o = h.ssh;
  std::string tried;
  if (o.identity) {
    const std::string path = expand_home(*o.identity);
    const char* pass = nullptr;
    if (o.passphrase_env) pass = std::getenv(o.passphrase_env->c_str());
    ssh_key key = nullptr;
    // The passphrase is handed straight to libssh and never logged or formatted.
    if (ssh_pki_import_privkey_file(path.c_str(), pass, nullptr, nullptr, &key) != SSH_OK) {
      if (access(path.c_str(), R_OK) != 0)
        could_not_run(who + ": identity " + path + " does not exist or cannot be read");
      // An encrypted identity and no passphrase at hand: its key may be loaded in
      // ssh-agent (ssh-add), as OpenSSH would use it. A passphrase that was given
      // and is wrong is reported, not papered over by the agent. The agent's
      // socket path is never printed: it is a handle on the user's keys.
      std::string agent_note;
      if (!pass && std::getenv("SSH_AUTH_SOCK")) {
        if (ssh_userauth_agent(s, nullptr) == SSH_AUTH_SUCCESS) {
          spdlog::info(
              "{}: identity {} is encrypted and no passphrase is set; logged in with its key from ssh-agent",
              who, path);
          return;
        }
        agent_note =
            " (ssh-agent, found through SSH_AUTH_SOCK, was tried too: it holds no key the server accepts)";
      }
      if (o.passphrase_env && !pass) {
        could_not_run(who + ": identity " + path + " needs its passphrase, but the environment variable " +
                      *o.passphrase_env + " (named by passphrase_env) is not set" + agent_note);
      }
      could_not_run(
          who + ": cannot load identity " + path +
          (pass ? ": the passphrase in $" + *o.passphrase_env + " is wrong, or the key is not a private key"
                : ": it is protected by a passphrase (set passphrase_env = \"VAR\" in the profile and "
                  "export VAR, or load the key into ssh-agent with ssh-add) or is not a private key") +
          agent_note);
    }
    int rc = ssh_userauth_publickey(s, nullptr, key);
    if (rc == SSH_AUTH_DENIED && o.legacy_algorithms && ssh_key_type(key) == SSH_KEYTYPE_RSA) {
      // A server may list rsa-sha2-* in server-sig-algs yet accept only ssh-rsa
      // (the lab's legacy sshd does; 4.3 itself sends no list, so libssh already
      // signs with ssh-rsa there). Retry once offering ssh-rsa alone.
      if (ssh_options_set(s, SSH_OPTIONS_PUBLICKEY_ACCEPTED_TYPES, "ssh-rsa") == SSH_OK) {
        rc = ssh_userauth_publickey(s, nullptr, key);
      }
    }
    ssh_key pub = nullptr;
    std::string fp;
    if (ssh_pki_export_privkey_to_pubkey(key, &pub) == SSH_OK) {
      fp = fingerprint_of(pub);
      ssh_key_free(pub);
    }
    ssh_key_free(key);
    if (rc == SSH_AUTH_SUCCESS) return;
    if (rc == SSH_AUTH_ERROR) could_not_run(who + ": login failed: " + ssh_get_error(s));
    tried = "key " + path + " (" + fp + ")";
  } else {
    const int rc = ssh_userauth_agent(s, nullptr);
    if (rc == SSH_AUTH_SUCCESS) return;
    tried =
        std::getenv("SSH_AUTH_SOCK") ? "every key in ssh-agent" : "ssh-agent, but SSH_AUTH_SOCK is not set";
  }
  if (o.password_env) {
    if (const char* pw = std::getenv(o.password_env->c_str())) {
      if (ssh_userauth_password(s, nullptr, pw) == SSH_AUTH_SUCCESS) return;
      tried += ", and the password in $" + *o.password_env;
    }
  }
  could_not_run(who + ": login refused for user " + o.user + " (tried " + tried +
                "). Is the public key in the server's authorized_keys for " + o.user + "?" +
                (o.legacy_algorithms
                     ? ""
                     : " An old server may also need `legacy_algorithms = true` (ssh-rsa signatures)."));
}

ssh_session open_endpoint(const profile::Host& h, const std::string& who, int fd,
                          const std::function<void(ssh_session)>& check_key, bool login) {
  ssh_session s = ssh_new();
  if (!s) {
    if (fd >= 0) close(fd);
    could_not_run(who + ": cannot allocate an SSH session");
  }
  bool fd_taken = fd < 0;  // libssh owns fd once ssh_connect has put it in the session's socket
  try {
    set_options(s, h, who, fd);
    fd_taken = true;
    if (ssh_connect(s) != SSH_OK) {
      const char* banner = ssh_get_serverbanner(s);
      could_not_run(who + ": cannot connect: " +
                    explain_connect_error(ssh_get_error(s), h.ssh.legacy_algorithms, banner ? banner : ""));
    }
    check_key(s);
    if (login) authenticate(s, h, who);
  } catch (...) {
    if (ssh_is_connected(s)) ssh_disconnect(s);
    ssh_free(s);  // closes fd too once ssh_connect took it
    if (!fd_taken) close(fd);
    throw;
  }
  spdlog::debug("{}: connected (kex {}, cipher {}, mac {})", who, kex_name(s),
                or_unknown(ssh_get_cipher_out(s)), or_unknown(ssh_get_hmac_out(s)));
  return s;
}

void tune_socket(ssh_session s, std::chrono::seconds dead_after) {
  const int fd = ssh_get_fd(s);
  if (fd < 0) return;
  // Unacknowledged data older than dead_after fails the socket: together with
  // keepalives this bounds how long a dropped link can go unnoticed.
  const unsigned user_timeout_ms = static_cast<unsigned>(dead_after.count() * 1000);
  setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof user_timeout_ms);
  const int on = 1, idle = 5, intvl = 5, cnt = 3;
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

}  // namespace labgate::transport
