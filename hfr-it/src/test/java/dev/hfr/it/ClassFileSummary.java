package dev.hfr.it;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the public-API check needs from one compiled class, read straight from its class file (JVMS §4) so that
 * no class is loaded and no dependency of a jar has to be on the class path: its name, its access flags, the
 * flags its enclosing class declares it with, and the types its outside-visible members name.
 */
record ClassFileSummary(
    String name,
    int accessFlags,
    String outerClass,
    int innerAccessFlags,
    List<Member> visibleMembers) {

  static final int ACC_PUBLIC = 0x0001;
  static final int ACC_PRIVATE = 0x0002;
  static final int ACC_PROTECTED = 0x0004;
  static final int ACC_SYNTHETIC = 0x1000;
  static final int ACC_BRIDGE = 0x0040;

  private static final Pattern TYPE_NAME = Pattern.compile("L([\\w/$]+)[;<]");

  /** A field, method or the class header (super types), with the binary names of the types it mentions. */
  record Member(String description, Set<String> types) {}

  /** The binary name's package, in dotted form. */
  String packageName() {
    int slash = name.lastIndexOf('/');
    return slash < 0 ? "" : name.substring(0, slash).replace('/', '.');
  }

  boolean isNested() {
    return innerAccessFlags >= 0;
  }

  /** Public top-level, or public/protected member of an exported class (decided by the caller for the outer). */
  boolean declaredVisible() {
    if (!isNested()) {
      return (accessFlags & ACC_PUBLIC) != 0;
    }
    return outerClass != null && (innerAccessFlags & (ACC_PUBLIC | ACC_PROTECTED)) != 0;
  }

  static ClassFileSummary read(byte[] bytes) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    Object[] pool = new Object[count];
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> pool[i] = in.readUTF();
        case 7 -> pool[i] = new ClassRef(in.readUnsignedShort());
        case 3, 4 -> in.readInt();
        case 5, 6 -> {
          in.readLong();
          i++;
        }
        case 8, 16, 19, 20 -> in.readUnsignedShort();
        case 9, 10, 11, 12, 17, 18 -> in.readInt();
        case 15 -> {
          in.readUnsignedByte();
          in.readUnsignedShort();
        }
        default -> throw new IOException("unknown constant pool tag " + tag);
      }
    }
    int access = in.readUnsignedShort();
    String name = className(pool, in.readUnsignedShort());
    List<Member> members = new ArrayList<>();
    Set<String> header = new TreeSet<>();
    int superIndex = in.readUnsignedShort();
    if (superIndex != 0) {
      header.add(className(pool, superIndex));
    }
    int interfaces = in.readUnsignedShort();
    for (int i = 0; i < interfaces; i++) {
      header.add(className(pool, in.readUnsignedShort()));
    }
    readMembers(in, pool, "field", members);
    readMembers(in, pool, "method", members);
    String outer = null;
    int innerFlags = -1;
    int attributes = in.readUnsignedShort();
    for (int a = 0; a < attributes; a++) {
      String attribute = (String) pool[in.readUnsignedShort()];
      int length = in.readInt();
      if (attribute.equals("InnerClasses")) {
        int classes = in.readUnsignedShort();
        for (int c = 0; c < classes; c++) {
          int inner = in.readUnsignedShort();
          int outerIndex = in.readUnsignedShort();
          in.readUnsignedShort();
          int flags = in.readUnsignedShort();
          if (className(pool, inner).equals(name)) {
            innerFlags = flags;
            outer = outerIndex == 0 ? null : className(pool, outerIndex);
          }
        }
      } else if (attribute.equals("Signature")) {
        typesIn((String) pool[in.readUnsignedShort()], header);
      } else {
        in.skipNBytes(length);
      }
    }
    members.add(0, new Member("its super types", header));
    return new ClassFileSummary(name, access, outer, innerFlags, List.copyOf(members));
  }

  private record ClassRef(int nameIndex) {}

  private static String className(Object[] pool, int index) {
    return (String) pool[((ClassRef) pool[index]).nameIndex()];
  }

  /** Reads fields or methods, keeping those a user outside the package can see (public or protected). */
  private static void readMembers(DataInputStream in, Object[] pool, String kind, List<Member> out)
      throws IOException {
    int count = in.readUnsignedShort();
    for (int i = 0; i < count; i++) {
      int flags = in.readUnsignedShort();
      String memberName = (String) pool[in.readUnsignedShort()];
      Set<String> types = new TreeSet<>();
      typesIn((String) pool[in.readUnsignedShort()], types);
      int attributes = in.readUnsignedShort();
      for (int a = 0; a < attributes; a++) {
        String attribute = (String) pool[in.readUnsignedShort()];
        int length = in.readInt();
        if (attribute.equals("Signature")) {
          typesIn((String) pool[in.readUnsignedShort()], types);
        } else if (attribute.equals("Exceptions")) {
          int exceptions = in.readUnsignedShort();
          for (int e = 0; e < exceptions; e++) {
            types.add(className(pool, in.readUnsignedShort()));
          }
        } else {
          in.skipNBytes(length);
        }
      }
      // 0x0040 is ACC_BRIDGE on a method but ACC_VOLATILE on a field
      int hidden = kind.equals("method") ? ACC_SYNTHETIC | ACC_BRIDGE : ACC_SYNTHETIC;
      boolean visible = (flags & (ACC_PUBLIC | ACC_PROTECTED)) != 0 && (flags & hidden) == 0;
      if (visible) {
        out.add(new Member(kind + " " + memberName, types));
      }
    }
  }

  private static void typesIn(String descriptor, Set<String> out) {
    Matcher m = TYPE_NAME.matcher(descriptor);
    while (m.find()) {
      out.add(m.group(1));
    }
  }

  /** Every summary of a jar's classes by binary name, for resolving enclosing classes. */
  static Map<String, ClassFileSummary> byName(List<ClassFileSummary> classes) {
    Map<String, ClassFileSummary> out = new HashMap<>();
    classes.forEach(c -> out.put(c.name(), c));
    return out;
  }
}
