#include "impetus/render/visual_nodes.h"

#include <osg/Geode>
#include <osg/Material>
#include <osg/PolygonMode>
#include <osg/Shape>
#include <osg/ShapeDrawable>
#include <osg/Texture2D>
#include <osgDB/ReadFile>

namespace impetus::render {
namespace {

osg::Vec3 toOsg(const Vec3& v) {
  return osg::Vec3(float(v.x()), float(v.y()), float(v.z()));
}

osg::Matrix poseOf(const VisualDesc& v, double rollAngle) {
  return osg::Matrix::scale(toOsg(v.scale)) *
         osg::Matrix::rotate(rollAngle, osg::Vec3(0.0f, 1.0f, 0.0f)) *
         osg::Matrix::rotate(osg::Quat(v.orientation.x(), v.orientation.y(), v.orientation.z(),
                                       v.orientation.w())) *
         osg::Matrix::translate(toOsg(v.position));
}

osg::ref_ptr<osg::Node> makePrimitive(const VisualDesc& v) {
  osg::ref_ptr<osg::Shape> shape;
  switch (v.kind) {
    case VisualDesc::Kind::Box:
      shape = new osg::Box(osg::Vec3(), float(v.size.x()), float(v.size.y()), float(v.size.z()));
      break;
    case VisualDesc::Kind::Sphere:
      shape = new osg::Sphere(osg::Vec3(), float(v.radius));
      break;
    case VisualDesc::Kind::Cylinder:
      shape = new osg::Cylinder(osg::Vec3(), float(v.radius), float(v.length));
      break;
    case VisualDesc::Kind::Capsule:
      shape = new osg::Capsule(osg::Vec3(), float(v.radius), float(v.length));
      break;
    case VisualDesc::Kind::Mesh:
      return nullptr;
  }
  osg::ref_ptr<osg::TessellationHints> hints = new osg::TessellationHints;
  hints->setDetailRatio(1.5f);
  osg::ref_ptr<osg::ShapeDrawable> drawable = new osg::ShapeDrawable(shape, hints);
  const auto c = v.colour.value_or(std::array<float, 4>{0.7f, 0.7f, 0.7f, 1.0f});
  drawable->setColor(osg::Vec4(c[0], c[1], c[2], c[3]));
  osg::ref_ptr<osg::Geode> geode = new osg::Geode;
  geode->addDrawable(drawable);
  return geode;
}

}  // namespace

osg::ref_ptr<osg::MatrixTransform> VisualNodes::make(const VisualDesc& v) {
  osg::ref_ptr<osg::Node> content;
  if (v.kind == VisualDesc::Kind::Mesh) {
    osg::ref_ptr<osg::Node>& mesh = meshes_[v.mesh];
    if (!mesh) mesh = osgDB::readRefNodeFile(v.mesh);
    if (!mesh) return nullptr;
    content = mesh;
  } else {
    content = makePrimitive(v);
  }
  osg::ref_ptr<osg::MatrixTransform> node = new osg::MatrixTransform(poseOf(v, 0.0));
  // Named for what it draws: the mesh file's stem ("road_wheel") or the primitive ("box").
  static const char* const kKinds[] = {"mesh", "box", "sphere", "cylinder", "capsule"};
  if (v.kind == VisualDesc::Kind::Mesh) {
    const size_t slash = v.mesh.find_last_of('/') + 1, dot = v.mesh.find_last_of('.');
    node->setName(v.mesh.substr(
        slash, dot == std::string::npos || dot < slash ? std::string::npos : dot - slash));
  } else {
    node->setName(kKinds[static_cast<int>(v.kind)]);
  }
  node->addChild(content);
  osg::StateSet* state = node->getOrCreateStateSet();
  // Solid whatever the collision-shape overlay sets above it; scaled meshes keep unit normals.
  state->setAttributeAndModes(
      new osg::PolygonMode(osg::PolygonMode::FRONT_AND_BACK, osg::PolygonMode::FILL),
      osg::StateAttribute::ON | osg::StateAttribute::OVERRIDE);
  state->setMode(GL_RESCALE_NORMAL, osg::StateAttribute::ON);
  osg::ref_ptr<osg::Material> material = new osg::Material;
  material->setSpecular(osg::Material::FRONT_AND_BACK, {0.25f, 0.25f, 0.25f, 1.0f});
  material->setShininess(osg::Material::FRONT_AND_BACK, 32.0f);
  if (v.colour || v.kind != VisualDesc::Kind::Mesh) {
    // The colour replaces the mesh's own materials (a robot's parts painted from one mesh).
    const auto c = v.colour.value_or(std::array<float, 4>{0.7f, 0.7f, 0.7f, 1.0f});
    material->setColorMode(osg::Material::OFF);
    material->setAmbient(osg::Material::FRONT_AND_BACK,
                         {0.6f * c[0], 0.6f * c[1], 0.6f * c[2], c[3]});
    material->setDiffuse(osg::Material::FRONT_AND_BACK, {c[0], c[1], c[2], c[3]});
    state->setAttributeAndModes(material, osg::StateAttribute::ON | osg::StateAttribute::OVERRIDE);
  }
  if (!v.texture.empty()) {
    if (osg::ref_ptr<osg::Image> image = osgDB::readRefImageFile(v.texture)) {
      osg::ref_ptr<osg::Texture2D> texture = new osg::Texture2D(image);
      texture->setWrap(osg::Texture::WRAP_S, osg::Texture::REPEAT);
      texture->setWrap(osg::Texture::WRAP_T, osg::Texture::REPEAT);
      texture->setFilter(osg::Texture::MIN_FILTER, osg::Texture::LINEAR_MIPMAP_LINEAR);
      texture->setFilter(osg::Texture::MAG_FILTER, osg::Texture::LINEAR);
      state->setTextureAttributeAndModes(0, texture,
                                         osg::StateAttribute::ON | osg::StateAttribute::OVERRIDE);
    }
  }
  if (v.textureRepeatU != 1.0 || v.textureRepeatV != 1.0) {
    osg::ref_ptr<osg::TexMat> repeat =
        new osg::TexMat(osg::Matrix::scale(float(v.textureRepeatU), float(v.textureRepeatV), 1.0f));
    state->setTextureAttributeAndModes(0, repeat, osg::StateAttribute::ON);
  }
  if (v.treadPitch > 0.0) {
    osg::ref_ptr<osg::TexMat> texMat = new osg::TexMat;
    texMat->setName("tread");
    node->setDataVariance(osg::Object::DYNAMIC);
    state->setTextureAttributeAndModes(0, texMat, osg::StateAttribute::ON);
  }
  if (v.rollRadius > 0.0) node->setDataVariance(osg::Object::DYNAMIC);
  return node;
}

void VisualNodes::roll(osg::MatrixTransform& node, const VisualDesc& v, double angle) {
  node.setMatrix(poseOf(v, angle));
}

osg::TexMat* VisualNodes::treadTexture(osg::MatrixTransform& node) {
  osg::StateSet* state = node.getStateSet();
  return state ? dynamic_cast<osg::TexMat*>(
                     state->getTextureAttribute(0, osg::StateAttribute::TEXMAT))
               : nullptr;
}

}  // namespace impetus::render
