// A value that lives on the heap and is copied with its owner: for fields
// most objects leave empty, so that they cost one pointer (std::indirect of
// C++26, which may be empty here).
#pragma once

#include <memory>

namespace conform {

template <class T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const Boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  ~Boxed() = default;

  /// The value, or nullptr while none was made.
  const T* get() const { return value_.get(); }
  /// The value to fill in, made empty on first use.
  T& make() {
    if (!value_) value_ = std::make_unique<T>();
    return *value_;
  }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace conform
