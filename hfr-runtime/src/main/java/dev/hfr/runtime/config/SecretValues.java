package dev.hfr.runtime.config;

import java.util.regex.Pattern;

/**
 * Keeps secrets out of error messages and logs: the value of a key that looks secret ({@code password},
 * {@code secret}, {@code token}, {@code key} as the last word of the key, credentials) is never shown, and
 * neither is the password of a URL ({@code password=...}, {@code user:password@}).
 */
final class SecretValues {

  private static final Pattern SECRET_KEY =
      Pattern.compile("(?i).*(password|passwd|secret|token|credentials?|(^|[_.\\-])key)$");
  private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(password=)[^&;\\s]*");
  private static final Pattern URL_USER_INFO = Pattern.compile("(//[^/:@\\s]+:)[^@/\\s]*@");

  private SecretValues() {}

  /** Whether the key at the end of {@code path} looks like it holds a secret. */
  static boolean secretKey(String path) {
    int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    String key = cut < 0 ? path : path.substring(cut + 1).replace("\"", "").replace("]", "");
    return SECRET_KEY.matcher(key).matches();
  }

  /** {@code text} as it may be shown: hidden entirely under a secret key, else with URL passwords hidden. */
  static String shown(String path, String text) {
    if (secretKey(path)) {
      return "(hidden: " + text.length() + " characters)";
    }
    return URL_USER_INFO.matcher(URL_PASSWORD.matcher(text).replaceAll("$1***")).replaceAll("$1***@");
  }
}
