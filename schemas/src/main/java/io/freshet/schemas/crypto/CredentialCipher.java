package io.freshet.schemas.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The envelope of {@code FetchRequested.credentials_encrypted}: AES-256-GCM with a random 12-byte
 * nonce, laid out as {@code version(1) | nonce(12) | ciphertext+tag}. The scheduler encrypts when a
 * source is stored; only the fetch-worker decrypts, just before the request. Credentials are never
 * on a topic, in a log or in an API response in plaintext.
 *
 * <p>The key is 32 bytes, given base64-encoded (e.g. {@code openssl rand -base64 32}).
 */
public final class CredentialCipher {

  private static final byte VERSION = 1;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final SecretKeySpec key;
  private final SecureRandom random = new SecureRandom();

  private CredentialCipher(byte[] key) {
    this.key = new SecretKeySpec(key, "AES");
  }

  /**
   * @param base64Key 32 bytes, base64
   * @throws IllegalArgumentException naming the problem when the key is missing or not 32 bytes
   */
  public static CredentialCipher fromBase64Key(String base64Key) {
    if (base64Key == null || base64Key.isBlank()) {
      throw new IllegalArgumentException("credentials key is not set (32 bytes, base64)");
    }
    byte[] key;
    try {
      key = Base64.getDecoder().decode(base64Key.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("credentials key is not valid base64");
    }
    if (key.length != 32) {
      throw new IllegalArgumentException(
          "credentials key must be 32 bytes (AES-256), was " + key.length);
    }
    return new CredentialCipher(key);
  }

  public byte[] encrypt(String plaintext) {
    try {
      byte[] nonce = new byte[NONCE_BYTES];
      random.nextBytes(nonce);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(new byte[] {VERSION});
      byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length)
          .put(VERSION)
          .put(nonce)
          .put(sealed)
          .array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot encrypt credentials", e);
    }
  }

  /**
   * @throws IllegalArgumentException when the envelope is malformed or was sealed with another key
   *     (the message never contains the data)
   */
  public String decrypt(byte[] envelope) {
    if (envelope == null || envelope.length < 1 + NONCE_BYTES + TAG_BITS / 8) {
      throw new IllegalArgumentException("credentials envelope too short");
    }
    if (envelope[0] != VERSION) {
      throw new IllegalArgumentException("unknown credentials envelope version " + envelope[0]);
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, envelope, 1, NONCE_BYTES));
      cipher.updateAAD(new byte[] {VERSION});
      byte[] plain = cipher.doFinal(envelope, 1 + NONCE_BYTES, envelope.length - 1 - NONCE_BYTES);
      return new String(plain, StandardCharsets.UTF_8);
    } catch (javax.crypto.AEADBadTagException e) {
      throw new IllegalArgumentException("credentials were sealed with another key or altered");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot decrypt credentials", e);
    }
  }
}
